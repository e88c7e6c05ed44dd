next
    volatile
node{ }typedef
extern
static
    unsigned const restrict
* value
(),T ; restrict double
    short*i[] ;volatile
    enum
T**
const len
    (
)()
;struct
    count
    node()[][]=
{ {} ,
{}
    ,{ {}} , {{{}, },{
}} ,
}, len={{ },
} ,*next ()={{{ }},}
,**node[
    ]
    [] ={{{{} }},{},} ;
volatile
volatile static static
auto
    restrict _Bool signed char
    signed
_Bool restrict const restrict
    const volatile const * restrict
    volatile* volatile const
    restrict*
const const( value
)() []()
    {}
typedef
    auto value buf; static node
    ; count restrict
count{
}