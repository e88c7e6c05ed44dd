enum{
node}
const const restrict volatile* * volatile*restrict const(buf())
    {auto len; }_Bool unsigned
_Bool
unsigned*
*const*volatile
    restrict
value()( )(), *
*restrict T()
    () ;
    restrict
    static
struct n(i)
()()[ ]
{goto len;;
typedef value buf;typedef
    enum main*
    main ,len;default
    :break;} register restrict inline volatile restrict
    restrict
    volatile enum{node,}*const volatile
    restrict
    node[]()[](inline i*
,...
)[],
    len={{ } },*count[]={{{},},
} ,value,*
    *volatile* volatile restrict
(value)() ={},T={};typedef auto
    buf
y;x
x{}