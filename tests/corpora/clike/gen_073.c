union {
}const volatile len
    []{
    break;}restrict
    const restrict double char
    * *const( next) {
    return;buf:goto node;}
register const
enum main
    {next,
    len}**
    const
    (next );const register
volatile const
inline long volatile
volatile volatile
    restrict
restrict *const
    restrict(buf)( )[ ]{for(restrict
    x restrict ; ;){}}struct {}volatile
    restrict
const restrict volatile const*volatile const*volatile
    volatile
buf() [](len
volatile*
)={ {{{{
    {}}, },
    },{}, {},},{}, { {}}
    ,{ },{{{
    }}
}},* value
(),x,node; x const;const main count{
}typedef const
    node main ;