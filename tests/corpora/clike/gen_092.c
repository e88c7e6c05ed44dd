enum
len{T
    ,value,T,
    } volatile
restrict
    volatile* *restrict*volatile const*
    (next )() [] { static const void
const
volatile buf={
{}};}const volatile
    restrict
    volatile union
y{inline
    y restrict value ;
    }restrict const restrict restrict
const
**volatile*const const* restrict restrict restrict*
    const const(**volatile * const(i)[] ){ continue;return
    ;typedef
    restrict
    extern
enum n*x[ ],value;
break ;}extern auto
    long* volatile const*volatile volatile
    const*
volatile
    volatile*
restrict volatile volatile
const
    volatile(*
    volatile
    restrict
    *volatile (**T() [ ])
){
    volatile const
    extern n
    restrict *node
    ()
    ,x;
    break;}
    restrict
    T
value{
    }
typedef restrict buf
T
    ;