double volatile const*next[]{ continue; }extern
    auto auto
    union x*y[
]
={{{} } ,{},},
    y={
{} ,}
    ;struct
    len{}
    volatile restrict **restrict*
    volatile
const
x ()()
(
){
    }static restrict static register auto
    struct i restrict volatile const const *volatile
    restrict( *x()), len={{ }
}, * main
[]={ {{}} ,
{},},**volatile
    (buf)= {{ }};restrict register register signed**** const const*restrict volatile (T
)()[](double, n
)
    { typedef
    double restrict restrict*T(),i; extern next
const;}restrict buf
    volatile
    T {}typedef
    T main;main n{}