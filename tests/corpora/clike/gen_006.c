static
    _Bool
bool
    _Bool
    restrict
volatile volatile volatile**volatile**volatile volatile
const
** restrict
volatile*const
const(x (
)[][
][](
extern
    volatile node*
i[
    ],y ,...)
)
    ={{{{{{{
{ {}}
    ,
    {},},
{}, {{} ,},
},{}
    ,{ }, {{ {}},{}},} ,} , {{}
    , } , },{{{{{{ }}
}}, {
    }, {{}},{
{} }
,}, {}
    ,{}
,{},{
    {{{ },} ,}, {}
    , {
    },}}
    ,},};