enum
    {
    len, }*(*volatile
y)(struct n{}
    i,volatile y restrict
)
{unsigned long*i,main
    ; }float long * *restrict*restrict volatile*restrict const*restrict const
    count( )()
()(T ,...
    ) []= {
    {{{ { {{}}
    ,{
    } },},{},{{
}
},{{{}},{}
}},},{ {}
    ,},{{ {}},{}},{
    {{{}} },{{ },}} ,{ {{{{}
,},
},{
    },{{} }, }},};inline len volatile
i{}buf restrict;