enum{y,}node(
    buf**volatile*const (next
    )[],
enum
{len ,} volatile
volatile
    const){ }const inline extern restrict
    static
enum{node,len}
    restrict const volatile
restrict
const volatile volatile
    restrict volatile( ***const
const*volatile const restrict*const volatile
const*const volatile restrict
volatile
    const
    y ()()( )[]( )
()
){ volatile const register
    size_t const restrict*
    *const
*const(
*buf (
))={{{
{{ }}}
    ,
    {},{{},}
    } ,},n,*i , **
(n)={
    { { {}, },}
,{
},{
{}}
,} ;auto x restrict;}