union
{y
    buf; i*T [] ; union value{}len()[],
    value,*count (
);}*( *restrict
    const
    const(node) [][])[]{restrict volatile extern
auto
inline struct
{}const volatile restrict volatile restrict
*
restrict volatile (*T
());
    }enum{len, len
    ,i,count
    ,len}(*volatile
const const(y
    [] )(
restrict
    value const,...))( volatile
register
auto double
    _Bool*volatile
    volatile(len) () ,static
buf ,volatile
    const
enum
    node,
    char
unsigned restrict volatile volatile**const
main[
    ]( ), ... )={ {},{{{
    }},} ,{},{}, {},{}}
    ,buf= {} ;