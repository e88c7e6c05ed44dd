enum{ n}restrict restrict volatile**restrict
n[]{for(;;) ; }
restrict
    auto union{ }restrict
    restrict*volatile (x);const volatile
char* *const volatile volatile(T) []
(buf restrict
    )
{
    typedef restrict restrict
union
n
    restrict
restrict len(),
y;
    }inline register static static
    const
inline enum {main,n
    } volatile
volatile
    restrict restrict
const volatile*restrict*const
    restrict*restrict volatile count(
    )={{
{
{
    {{}},{}
    ,},{
    {} ,
    }} ,{ {{}}},},{ },{
    {}, }
    ,{{{}},
} ,{}
,};typedef enum {len,value,
    }volatile
    i,
    node
    ; restrict x
    const; main next{ }