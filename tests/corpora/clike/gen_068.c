len restrict len{
    }
    restrict
    static
enum buf restrict
const*
i
    []{continue;}static
inline
    union
T{ }
    volatile restrict volatile**const
    i[]( ){ continue ; { }}typedef const volatile inline inline
main volatile restrict
    value[
](),
    n,*len[],**const next; struct{} * const
    restrict
    volatile
next ()
()[][]{continue
    ;for(
; ;)break; typedef value
    node;register
    extern enum
    node const
volatile
    next=
{ {}};} volatile
register
    restrict
    const inline
    register
value***restrict
volatile*const
    restrict
    restrict *
const
    const
    const restrict (count
)[]
    [
](){ const
    static enum
main value={{
    },};restrict
T
    const;}count
    restrict value {}restrict value
    const
    i{ }typedef restrict y n ;