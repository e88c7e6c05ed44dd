struct{
node
    restrict n;struct n{}restrict*
    count(
)
,
i ;_Bool
double len()[],count
    ,*buf[]; }**restrict *restrict
volatile*const restrict
restrict*volatile*
    volatile
const restrict
    (*
    T[])[
    ]
    ( )(struct next volatile* * volatile
    *
    const volatile,static next*,const
auto
union
i {},...)= {
    {{ {{{
{{
}},{}
}
} ,
    {}, {{},
    }, {{{} , },
{ }},
    },{{ {} },{}},{{{{ }},
    },{},{{ },}, } , },{ }
    } ,}
    ,value
    ; static main;