volatile volatile auto
enum value
    const const
    restrict*next()
    , T=
    {{
    }};
    inline inline restrict
    long
    double long const restrict volatile
    volatile*volatile*restrict restrict value(
    )
[]
(){
    len volatile
;}bool void
    double int *
const*const restrict*T
(){for(;;)default
:default:
goto
x; }struct{
extern
    y
    i;
    } **restrict **restrict volatile volatile(
    main ()[ ]), *
    * volatile
    *
restrict
restrict
    count()()[]
= {
{{{},{} } ,{},{},
    }};
enum main{
n,value,count ,next ,}restrict const
    const (**
node
()[])[]={} ; T const main
    { }typedef value
buf;