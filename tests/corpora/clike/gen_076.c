const volatile const
    restrict
    volatile
const volatile float
    char
signed size_t;enum
{value }*volatile restrict* restrict
    const
*
volatile volatile
volatile
volatile* const
    volatile*const
    restrict
    volatile
    const const restrict(buf()[]
    (
    )[])( const
    const volatile inline enum
    T{value,buf}volatile
    volatile const
    volatile n [],
    restrict count,
    register const
enum
    count
    restrict
restrict
    ,enum i{main,},...) { x**restrict
    node[][]= {{{
{}
    },} };float
    int bool
    double
    volatile* * restrict*restrict const(*i
( ))={{{
{
    {
    }},
    }, {{ } ,}},},
*
    T
    = {{{},}},T
=
    {}
;}static
    value
main {}