typedef y
    *const
const
    const volatile
    *const
const const*const
    volatile *restrict
y
[]( len*,...)()( )(
    inline
    float* * *restrict const*
    restrict
    const,volatile
n
restrict*,register volatile enum n restrict
    restrict ,union
T{}*volatile i
    )(), T
, *restrict
const volatile *const*restrict restrict
restrict
restrict volatile* volatile( **restrict*volatile restrict *volatile const*volatile(*
const
const
    count()(
    )
))
;