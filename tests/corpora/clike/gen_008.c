count
    const
    y
    {} enum
value const restrict*
    n( ){break;
}
    const const
    const
enum main
{
    T
    }const volatile
    volatile main
()[
] {
break;for(;;
    )continue;}const
    inline
static
    auto
struct {}* const(n )= { {{{ }}},{},{{ },}, } ,node,T[] ={{{ },}
    ,{}}; enum{n,}*
    volatile restrict
    volatile
x()[
]
    ()(){} restrict
    restrict
    auto
    auto
    bool volatile
restrict(buf()
    ())(){}restrict const
    enum
    {buf,
    value ,len ,node,i}restrict volatile volatile restrict volatile
volatile
    len=
    {}; restrict T
const;n
node{}