restrict auto inline register
    extern static
    unsigned long * *volatile**volatile const
    volatile *restrict
    (next )()[][]{goto
    T; {
    }typedef count T
    ;continue;len: {
    goto next
;}}enum{
    x,
len
,}restrict
restrict*restrict*
const
    volatile *const
*
const
volatile const const*volatile(*main[] )[]()(){restrict
volatile extern volatile void double size_t
    **restrict
    n()
(),x
    ={
    {},}, y();}
    typedef volatile
const
    volatile
    const struct{extern volatile bool restrict
    volatile*next[],y; volatile
volatile
auto union{}x
    ()[],y,*y( );}
    node,T;static node
volatile x { }