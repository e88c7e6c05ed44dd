typedef unsigned
unsigned
size_t _Bool*
*
const const* const
restrict
    volatile volatile*const
restrict*restrict
    restrict volatile
    restrict restrict
    volatile( **volatile*const const
    value
    [] [] ())[]
    ( ) , * const* *volatile
restrict const( buf)[ ]
    (next const *, ...),(**restrict*const
    const count()()(
)),*
const
restrict( *main()[
    ][])() ;
    restrict
    inline const static inline volatile const
    volatile const
void
    void long bool restrict volatile
    restrict restrict
    volatile*const const volatile
    restrict
restrict
volatile
    volatile (T)( ) (len
    volatile,...)()()[ ]
[
    ] {
    }