typedef value
    next
    ;
    volatile
extern union{}*
    n{return;
    } struct
{}volatile*
    *volatile
buf
( )[]{break
;default :break;}
enum
    i{i, T, }
    **
volatile i[
][]
,* y(); typedef register auto extern
    restrict volatile
value* *restrict*restrict const*
const
    const next(
)[
    ]( ) ,
*len ,
*volatile T()
    [],i
(
    ) [][
];
    struct
n{inline node
    restrict
buf; }
*
    volatile
restrict* const
    volatile const value[][]()()={{{{
{{}},{}},{ },{{}
,
    },},},{}} ;typedef
    extern
i buf;const i const;T
    restrict
    len{}