auto
restrict register long
_Bool* * const(
i) {return;
    default
:
    ;}const inline
    long
const const const
    const**restrict*(* count
()){typedef main restrict node;}
    auto extern
    const
    volatile
extern
x
    volatile
    const restrict
volatile restrict**const
*main[]()
    []
;enum{T,
}; typedef
    volatile volatile restrict register
restrict
    const int _Bool
    char *restrict*const
restrict *
restrict
volatile*restrict const
restrict
volatile*y,main,*n() ,
**volatile x( ),**restrict*const(*x(
    )),**const
i,** const* volatile volatile*volatile
    const
    volatile* value
[] [] ( )(
    ) ;static
    buf const
    value{}
typedef count
n;