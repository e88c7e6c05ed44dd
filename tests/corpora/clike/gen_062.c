typedef size_t short short
    double
void
float
restrict volatile*
    *
volatile volatile
restrict
restrict volatile*const len()[][][]()
    (
) ( ),
*
*
    const*const*restrict
    T[][]
    ()[ ],* restrict const
    const*volatile const restrict
const n ,* restrict * volatile volatile
    volatile**
const volatile(
    *restrict
const
restrict(**restrict
    main[
    ]))
;union
    n*
    *volatile
    restrict volatile volatile* const restrict
    volatile restrict *const
restrict
    const
    const
const
restrict* const len
{ typedef
    struct{}volatile
    restrict
    volatile**const*restrict restrict
    count
    (),n[],
    **
    volatile node[] [];inline signed double restrict
restrict restrict
    volatile restrict*restrict
*
x,T= {} ;return; }