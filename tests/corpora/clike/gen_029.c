const
    inline
enum
    T{
node} const
    const
    restrict
volatile const
    restrict volatile(node)()(
value,...)(static register
    struct{ }*len [],static next,...)()={{{{{} },}},
},(* *const*const volatile
(*main(
    )));enum{ node}* *const* volatile const *const
    const
restrict*restrict const
* * const
    restrict const
    const(
    *const (* count[ ]) )()
(enum{n,main
}
volatile
restrict***restrict
    restrict (*value ()))
,*
    * const main( ) [],
*const *node
[
]
    = { {{{{ }},
    {
},}},{} },len, T = {},
    value;