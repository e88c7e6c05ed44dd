typedef double
volatile volatile volatile volatile(*volatile x[ ]( i
volatile*) (
));typedef
enum len{
count ,count ,
main,count }*(**const*const*volatile restrict const (T)[](
    ))[
    ](
    size_t long size_t
size_t* * volatile restrict*restrict restrict volatile* volatile const
restrict volatile, volatile
count
    volatile, struct
i restrict const,auto
volatile volatile
    y
    volatile
    const
restrict *
*const
node
[](
) ,
    union
    T{}
const const
restrict
volatile, ...)
,*(** volatile restrict volatile
*const(**restrict
x( )())[ ]);