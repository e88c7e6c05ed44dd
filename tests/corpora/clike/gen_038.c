const inline
    register const static
    const static const
    struct
node
    (
    **const node()())
()[][]{continue ;
}typedef size_t
    short
    double
    volatile** restrict*restrict
restrict** restrict const
const
    const*restrict
const volatile
    volatile
volatile
    *
volatile const*volatile volatile
    const
    restrict const
volatile restrict(
    *restrict *const restrict
    const
    restrict
volatile
main(
    void
    _Bool volatile restrict**restrict
node,restrict T
    ,void,... ) ) ,len
    , *y(),*
* T() (),**restrict* const
(len
    )(),
    ** restrict*restrict restrict
    * (*i())(
    ),
    *const(*
restrict
    const y[]()[
])
    ,next,main;