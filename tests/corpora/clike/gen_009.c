size_t
    int(
count()){for
    (; ;)break;break
    ;}
const static static
    const inline T volatile const volatile volatile* **restrict
    const*const
volatile
const
    (**volatile(len)
){
volatile node;enum T
restrict; }typedef union{main restrict buf;} const const
    const restrict*const*restrict volatile
*i[ ]
()[],i ,*i[], **volatile buf[][ ],*const(y
)
    (),
    *i( )()()(const
main main);typedef
register inline
    restrict
    auto static restrict restrict enum value{
    len, node ,
    len,
    x,
    T,}const
restrict volatile const
    restrict ***const volatile*
**
T,n;register
    len;typedef
extern
node i;