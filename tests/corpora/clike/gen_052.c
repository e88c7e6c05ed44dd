union
node
    **volatile*
    const count
    [ ]()( )[]
    {i ;typedef
    volatile _Bool volatile
restrict*y
[]
    ;
    } union
    count
{volatile main
volatile node;
    }**volatile*volatile restrict* const const restrict
*volatile
    volatile((* y[
])) {enum
    i{count}*
    next() ;} typedef
    volatile
restrict
    auto
static
enum{buf,n,node,}volatile const
    const
    const
const( x ())[], *(i)()
,*
    *restrict* volatile
volatile*restrict
    restrict
const len(
    ),i;
    enum{buf
    ,buf,
node
,}
const **const*restrict
restrict*
restrict*
const*volatile
restrict
    volatile
    restrict
    *volatile restrict volatile const
volatile
buf{}restrict
T ;