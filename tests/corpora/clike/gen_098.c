inline
volatile
struct{
union
    buf
const
restrict
volatile*
    *
restrict
(count),node , * n
    ();} *restrict const volatile*restrict
    restrict *
    const const restrict
restrict
    const
    main ( ); enum{n};