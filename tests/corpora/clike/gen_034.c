typedef const
const volatile auto
    const restrict
    inline
const const
i
    const
const
const *restrict const const* restrict *
    volatile
volatile*volatile const
volatile
    const
    volatile*restrict
restrict
    (n()[] ( )) (
register inline volatile inline
enum
node{len ,buf}const
    volatile,extern
volatile
    short
value(),volatile enum x{next
    }volatile
    const
restrict
)(union{ }const restrict
    restrict const
    restrict***restrict*const
    const
const restrict,
    ...);