volatile
    static restrict const
inline volatile
    extern const i(**const
*volatile **
    restrict
volatile const
const(*volatile
restrict
    len)){typedef const static struct value{}restrict*node[],next; return
;return
; default:default : continue;}
struct{ const extern
    static
    volatile
    enum
{n
    ,}**
restrict*const
    const main[][ ]
[],n, count[],*restrict i( )
    [ ];}*restrict*volatile
restrict**restrict
const
    restrict restrict*const volatile volatile
volatile const**restrict volatile volatile(* volatile
    volatile const
    n)(struct{ }
const restrict
const
restrict
    * *volatile*restrict
( * x
[]
    ),
unsigned
char volatile
const*const
    T)[] {}