len
value{
    }auto
const struct
n{
}restrict
    next (){return; }restrict restrict enum T{value,}buf[] ={{{}, },}
    ;typedef enum {main
,len} restrict
volatile
restrict restrict*
const *const(*count),len ,len
    [
    ],value
    [][
    ];restrict const
auto
restrict
    restrict i****(*x[]) [
]{}typedef
    struct x{
    restrict i
    restrict
    buf
    ;}**const
    * restrict *volatile restrict*
const restrict volatile const (T()()[ ]),main,*y() ,
    *
    *const( buf), node [ ]()(),**restrict*
    const*
main; typedef auto
count len;typedef volatile
    len const
    main ;typedef const
    T
restrict
    i;