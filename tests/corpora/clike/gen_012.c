typedef restrict
extern
    enum T* main,buf;union x{}*
*(buf){
}restrict
    const
    auto
extern union T
volatile***restrict
    const (i )(
){continue ; break;count ;}enum{next,
    buf
,n,}const restrict *
    const const restrict node[](
)[](volatile
    value
    T){typedef
static restrict signed
    restrict
const *n,len;}restrict register static
register const
    union len { const i y;
}const
    const const
restrict
const const* restrict volatile* volatile restrict(*
    n)[
][] {
enum buf{i,}*y[ ] ;
} static
inline short
    short
bool unsigned
    int
    double
volatile*volatile
    volatile
volatile const
restrict(*
    *volatile buf
    )[](restrict
    n
    restrict* ,...){
    }
restrict x volatile;const y
y {}