enum
count
{n, buf,count,}
    *
**
    const
volatile
node[]
    [][];
    union{
    n
    volatile
    buf;}const
    restrict
const
    const restrict volatile** restrict*volatile restrict
    *
restrict(
value []())= {{ {{}
    }}, { {} }, {
    {{
    }},
    {},},{{{} , {} },{}
,
    {} },};restrict const restrict short(**restrict(i)
    )[
][
    ]{ typedef const
static
    node
const**volatile
    * const
    volatile(*T[]) ;}static
static static
    buf
y()
{enum buf {buf,}**restrict *volatile
    restrict x=
{
};}volatile len
x{}