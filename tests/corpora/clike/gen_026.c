typedef
    next volatile
    value;
    typedef static signed
    const
* i[],buf
;struct x restrict len={{{ }, },{}, } ,i=
    {{ }};auto
static
enum{next,i,}** const
    *restrict(*
n()){}auto
const
long size_t**restrict*const
i
    ;
const auto extern enum{value}restrict volatile
    volatile
    restrict
volatile restrict(**restrict*restrict
    const
    main
()[] [] ){
}long
const
    const;
    enum count{next,len,i,}*
**volatile* *const
    volatile
volatile restrict**(n )()[][](struct
    n restrict restrict**
x
(),static
main
    , count volatile buf )(
len volatile ){}len const buf{
    }