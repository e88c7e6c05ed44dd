union{restrict n
    n;struct
buf{}restrict
const*x[
    ]
,
    next;
    _Bool
volatile
    const
volatile
node[](
),i, *n[
] ;static const
restrict
enum
    n
    {value
    , x
    ,}const
restrict *volatile y(
)
()(),** volatile count[
]();}const volatile const volatile restrict
const restrict restrict const*volatile
const*const* volatile*
volatile
    restrict
    volatile* const const
const const
volatile restrict*const
const
    const(* restrict
volatile const(**const(main))())(){default:;
    default:
default: goto
x ;}