volatile len
volatile i{}
const restrict enum
value
    restrict volatile value;typedef enum
    main {value,}**volatile
n
,
    count
,*value (); typedef
volatile auto
    const auto
    enum{main,y,}
**volatile*restrict
    volatile count[][]; auto
    struct value
const
len
[]()
    (),
*y()={{{}},},**restrict
    (
    count)={
{ {{} ,},}
    }; i * *restrict const**
(n )[
](
    )[]
{volatile auto
register
    float volatile restrict restrict *node
(
    ) ;}typedef restrict register
volatile
    register inline const
union
count*volatile* restrict* volatile volatile volatile volatile *const
    const
volatile
restrict const
node; restrict count volatile;
    T volatile n{ }