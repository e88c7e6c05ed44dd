void
    size_t
    bool
    char
const volatile
    const
volatile
volatile**restrict*const volatile
    *volatile
    restrict const
    x
()( value
    const){struct T
    T;}double size_t short
unsigned double
    const restrict*
*volatile*const restrict*restrict const volatile(
*const(main))
    ,( n
),**restrict*restrict const
next[] []
[] ;const volatile
buf** const**
volatile* const(**const
(next)) []={{{
    {{
    {{ }},
    {}}
},}
,{},{
    }
,{{ {}, },{
}, },{{{
    { },}
    ,{}}}
} ,};i
    restrict const node =
{
}
    ,main={};value
x{ }