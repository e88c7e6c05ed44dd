enum{T} **volatile* restrict
volatile
    y( )(
    )(){}typedef
    int
double
bool
    long
* **const
    volatile *(value)()(
volatile n
    ,
    ...)
,value ,
*n() ,count(),y; volatile register static
volatile restrict
volatile
len
    const
const
    const const
    restrict restrict*const
volatile(next() ) (bool
    const
    const* *,T*,
    ...){signed
    void
    volatile
    const
restrict
count[ ] ; }const
    union x{T
i;volatile enum
main
const
    volatile
value(),next;} const volatile restrict
const volatile
const
    restrict( * node[])(i*)
    [ ] []{restrict
inline register const struct T{}
* *count={}
,next
= {};}
value
    x {}const n volatile
count {}