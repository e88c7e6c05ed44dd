const auto
    restrict
    const volatile restrict
volatile register
    short**restrict* volatile const*volatile
    restrict volatile*restrict volatile**const restrict
    const
    volatile volatile const(**volatile
    const*volatile restrict*volatile
    volatile((value) [
    ])){{inline
count restrict;
    } const
restrict
    restrict double char restrict** restrict*(*next() ),* *volatile x;}volatile
inline auto volatile union
    value{
    }
volatile
const *
    const (y )(const volatile
volatile static
    value volatile restrict
    volatile
    restrict* const*volatile const*,
    node volatile*
    ,_Bool
    n,register
static
inline double
    bool const ** const*const,...) (
void bool char
restrict const
volatile restrict const*volatile restrict
    buf, register
    static
long
*T,restrict
y
const
,T
restrict, ...)
    {}