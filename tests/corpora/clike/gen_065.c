restrict
const const
    static main
volatile volatile
    volatile restrict
buf =
{{{{{ {{
    {{} },{},},{{}},},},
{{{{
} }}
, {}
,{{
}
},},},{{{{{
}, } ,{} }} ,{},{ {}
},{{{} ,},
{}}, },}}},**(count
),*
    const
    restrict n () () [ ],main
()()(extern next restrict *)= {{{ }
,
    {},{{} ,}
,{ }
    }},**const*const volatile**n ={}, value={ }
    ;