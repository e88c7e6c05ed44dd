volatile static volatile restrict
    static volatile extern auto
    bool double _Bool int
bool bool _Bool volatile volatile*const* restrict*const(
**restrict*restrict volatile
    *(*buf()) []
)
()={{ {{{
    {{{ { },} ,{ }},
    {{}
    }},{}
    ,{{
    }},{{
{
    },}},
    },} ,{ {
    {{}, },{
},},},{{{{ {} }
    },{}, {},},{{},},{{{},}
    ,
{ }},}},{}
,
{{},}
    ,{{{ }}
    },{},{}, {},},};