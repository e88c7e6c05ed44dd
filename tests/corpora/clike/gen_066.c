restrict
len(*i())[ ](enum len *value[ ], extern
    count restrict,...
)( ) [] {enum{
i } const*node;enum
buf
{
    count,
len} const
    volatile restrict const
n() []={{{ {},},}, };volatile
    union{}**const*volatile count[ ]()()={{ {{{}},{}}
,{{} }
    ,}
,{ } ,}
,y,*node , **
const
count( )[
]={{{{},
    },{} ,} ,{ },{{} ,},};}inline
auto
volatile
extern extern const
    node
count{}