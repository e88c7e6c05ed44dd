restrict register auto
const restrict
    const bool
unsigned
int
signed
    char float signed(next()
    []
    [])[]
    ()
    { for(
;;) break;len: default :goto
    count;typedef
buf* buf [ ],main
; register
enum { value}restrict restrict;struct
    i{}**volatile
i
    ;
default:continue;}inline
    restrict restrict
    static static auto register const
    volatile void bool
    double
int float char
double
    int restrict restrict
    volatile *restrict*const
volatile *volatile
    restrict
    *restrict
    volatile*restrict
const const volatile restrict*restrict
    restrict volatile restrict
    buf
    =
{
{
{ {{ {{},{},{ {},}, },{{}}, {{
    { }},} ,
}},
    },
{ },}, }, count;