enum
len{ len }const
volatile volatile
const const
    restrict
const const
volatile
    *const*volatile const*volatile*restrict volatile*restrict*volatile volatile( *volatile const*volatile
    const volatile
( y)()
())
(),i[] []
,x[ ],*
    volatile
volatile (x( ) [ ])
    ,*const
volatile
const(**restrict *volatile
restrict
next),
    *const restrict const*
volatile const(*const
    volatile*volatile volatile(*n[
])(value restrict*,...))
;