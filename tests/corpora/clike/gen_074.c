y len{
    }enum n x[]{
    ;} auto
    auto
unsigned
    int
    const volatile const*len [ ]=
{{ {} ,},
    }
;
typedef
union{}
    volatile volatile
    const
    const* *const*restrict
volatile count()[]() , x(
)();typedef static
    restrict union x{}
restrict
    volatile restrict**
    restrict * restrict
    *(* value[] )[],**(buf
),***volatile
volatile
    value[]
;float short unsigned
unsigned
char restrict
    const restrict
restrict const
    const**restrict
restrict
    * restrict
    restrict
volatile
next[] [](static main volatile
next)={ {},{},{ }
    ,{ {
{}
    ,
    },{}},{}},
    value={ };
    count
T{
    } typedef n volatile
    len;
auto
    y restrict
x{}