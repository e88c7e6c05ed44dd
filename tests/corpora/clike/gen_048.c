struct {_Bool
const volatile const(i),
y,* count() ; enum{
    count,y,}volatile
restrict
restrict
n,n,* value(),**restrict
    value ( )();}*volatile volatile**const volatile
volatile*restrict
    volatile const
const*const
    restrict
    volatile
restrict
*(*T (
))(
)[]
()(
enum{node
, value}volatile *volatile *volatile restrict(i) [], volatile buf
volatile i,
enum main*buf(),enum n
    {
    value,}**volatile*restrict
    restrict
    )
    []{typedef
    double float double long buf
() [ ],*
    (buf
    )[];inline
auto enum
    next volatile const const
const const
volatile n ;
}