bool
size_t
    double
    float
char _Bool
    short
    restrict const const const volatile volatile restrict(**
    restrict(T)) ()()
={
    {
{{{{
{ {},}
,} },{
    }, { {}}
    ,{{
    },}},},},{},{ { },},
{{ { },},{
    },}, {{{
    { }, }}
,}
,{{{
    {
{ }},
{}}
,{},{{},}}
} ,{ {{{{{},},{},}, { {}}}
}, }};static const
volatile
    volatile
restrict enum main{i,T}node
    {
}