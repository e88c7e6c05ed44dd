enum
node{count,i,
    }*const restrict
    const
    restrict(**volatile**
    volatile(** restrict
(y))
) {continue ;}volatile
    main*restrict volatile volatile
    const
restrict
    count() {for(; ;){}inline
enum{buf , }*value
( )={{{}, }},buf=
    { {
}};return; struct x{}
; }union
    count{T volatile count;
struct value{}
    restrict
volatile
x[], count ;
enum
    value const*
*
const
    x
[]();
inline
    static static
    static
    double*y(
    )
[ ][] ,
    y ,*y[],**main[
](); }restrict volatile
    volatile const restrict volatile
const
    restrict restrict node
    {}