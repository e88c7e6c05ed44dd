const
    static
restrict extern volatile
static
enum
    count{node ,
    i
,count,
value,x ,}*
    *const *const
    volatile*const
    *volatile ** const
    restrict volatile
const
restrict volatile(* const
    restrict const
const( next)[]( n)() );