struct{}restrict
    volatile const restrict
restrict(*volatile restrict
    volatile*(*T()(
    )[])){}
    typedef void size_t float
bool bool*volatile
volatile const
    restrict*restrict const
volatile
    restrict *restrict
    restrict*restrict const restrict restrict
    const const(*restrict const (**restrict (next )
    )()(static auto volatile
union{ }
**
    volatile* volatile const,const
    extern enum
buf )),**const*const ( *main[ ]), *volatile restrict const
y[]
()(
)[] ,n [] [],**restrict*const const* restrict volatile restrict**restrict(next)[](T
    volatile *,...)[ ][]
    ,y;