extern
volatile
    extern
    static enum{count}volatile
const
const**const const(count )
()
{goto y; {}for( ;
    ;)return
    ;}extern
const
register
const inline union next {
}
    volatile const
    const restrict*const const
volatile(x ) [][]
    {} static
    const
    inline
    enum T {T ,
} **
const*const volatile*restrict
    (**const
node[][])={{ {{
    {{}},} ,
{},{
    {}
,}} ,
{}, {
    { },
    }
,{
    {
    {}
    },{}, },} },i,* buf[]
={{{ },} ,
    {} } ,main,n; x volatile node{} main
    x
{
    }restrict
    i value {}