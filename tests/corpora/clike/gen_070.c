struct len**const *restrict
    restrict (count[])
,len
,* x[],**volatile
value;
typedef restrict register auto struct{volatile main len
    ;}
    **
    const* *volatile volatile
restrict*restrict
    volatile
    const
    value[] , *
volatile
    (next),* *
    restrict*
n(
)[] ,**volatile
    *const restrict*(**
    const
x[][]) ;restrict
    const extern register auto static
    auto value ** const*restrict*restrict T[]
    [
    ] ()(buf ,
...)
(),*
(
x )()( );typedef int volatile restrict
    const**restrict
    *restrict
const**const
restrict volatile*restrict const
const volatile restrict*restrict n, n;restrict
next
    volatile;