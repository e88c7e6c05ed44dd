restrict struct{
extern
x main;volatile
restrict
long *len[],value;
    }
    ;union
count{
    y
    volatile
    i;
restrict register
union x*next
[
    ]
;size_t _Bool const
volatile
volatile**len [](),
i[];}(
buf )() [ ](union value{ }const,extern
T volatile*,...
    )(const
enum buf**
*restrict, i *,i
restrict restrict* *const,...
)= {{{{{
{
    }}
}}}, { {{
    }},{ },
    },
{{
{{}}, { }},{
},{ {},},},{{{ {{}},
    {
    }
,
}},},{}
    },T={};x
    volatile node{}