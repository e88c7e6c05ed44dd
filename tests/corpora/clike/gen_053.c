typedef volatile
    inline
const
    register
    inline
    volatile restrict volatile restrict
bool***const
    const* const volatile*restrict const* const const
const** (*const
    const volatile
volatile* volatile volatile
    const restrict volatile
y ()[][]
[
](x*len[],static
    i
    const)
    (value restrict,register n const,restrict
    struct next{
} **volatile,... ) ),len
,len(),**volatile
    (main) , ** const*restrict volatile (*value [])
,*
    (next( )
)
(x
    volatile len,...),* restrict*const const*volatile restrict
volatile* buf( ) [] [] ( )(
    volatile
const union
count**const,i restrict*)
,y ,
    i
;