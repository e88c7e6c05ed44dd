struct{const
    count
    y;
}volatile volatile restrict
*restrict const
    volatile(*
    *restrict
count
    []()
    ),*x[ ]={ {
}},*
* restrict i( ),**const*restrict(node[
])
    ;
double
    size_t
signed
    unsigned
const volatile
volatile
    const * restrict volatile
    const restrict*restrict
restrict
volatile restrict
restrict(len)()(main*,...)[](
    enum{buf}const
volatile
    const next[
](),
...){n
    restrict
    const
volatile *x[ ];return;}volatile
    auto enum value{next}restrict
    volatile restrict
volatile
const
    const const
    const*restrict
    restrict*
const const const
    volatile volatile*restrict
    restrict const
const((** restrict buf()) )(value
restrict ,
...){
}typedef
    node
    main
    ;