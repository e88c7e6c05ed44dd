node**volatile
    *
volatile
restrict
restrict
restrict
volatile
    volatile * volatile const const const
volatile restrict restrict
next[]{
    typedef restrict
    inline register restrict restrict
const union
    len{x restrict next;} *node, **volatile*restrict
volatile*restrict restrict volatile
x[] (
)[]( );}