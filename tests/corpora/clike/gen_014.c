struct{}* buf
;
    typedef inline
    inline
    inline long
float volatile
restrict* **(
    *n [ ]),x,*value() ,(x );enum{next ,}**const*restrict
const*x( )[]
    (
    )[]{
    } typedef count**const *restrict restrict
*
volatile*volatile ((buf) []);struct
    value{
    enum
    node restrict
    volatile*buf[],x; } * const
restrict
    (
    ** volatile*const
restrict
    (*main( )))=
{ {{ {{
{{},},{ },},{ } ,
{
    {}}},},{},{{}}
,{{ {},}, },{} ,},{} },y={};extern
n next
{}
    restrict
next volatile x{}