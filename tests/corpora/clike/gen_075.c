typedef enum
    count
    {x,}const
    volatile restrict
restrict
    const restrict
    volatile*restrict
    *volatile volatile**volatile
volatile const
    const
    *restrict
    const restrict restrict restrict((**volatile i()[ ])) ;
typedef int
    _Bool
    long
    double
    bool
    double const *restrict restrict restrict
* volatile
    restrict const *const
    restrict
    restrict
    restrict
volatile *restrict
const
    const
const restrict
restrict( *restrict
const
    const
    restrict(n
    )()(len,...)
    [
    ]),**
    volatile*restrict
const*volatile
restrict volatile( *i[])(),* const const*const
const* const
volatile restrict
    const(*main() ( ))[
    ], *
*restrict*restrict*const
    restrict volatile
*
restrict
    restrict volatile
    *restrict volatile restrict
restrict
x;
    T
x{}