const
value
    n{}
enum
    main volatile volatile* buf{return;}int
    void
volatile volatile restrict
*x()={{{}} , {},};
enum main
const
volatile
**volatile n[] [ ]
;long*restrict const
    const
    y()()()[]{typedef
    i buf ;typedef const
    extern
enum next volatile restrict * i[
]
,T;}restrict
    static
volatile int
    restrict const restrict
    volatile
const const**restrict **
restrict restrict
    volatile*(**
    const x()[])() {extern static restrict
struct
    node{};}typedef union{
}*const
    volatile*const restrict
    restrict const*
i; volatile volatile const
    struct i
{register
    n next;x
restrict main,n ;count const
    T;}const count
{}inline
x value{}