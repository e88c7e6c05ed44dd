enum {buf}**volatile*len {typedef extern register node *
    next( ), T;for(; ;)T:default:i:return;
    }static auto
union
    i{main const buf ;void *buf [];}*restrict const* restrict
const
restrict*volatile volatile
    restrict (**const volatile(value)(
    ))={
{{{{{{ }},{} },{
},{{
    }},}
    ,
}} },**restrict
    (main
)= {{} ,} ,* const volatile(y) [],**restrict *volatile restrict*const (next
[])();main
    const**restrict *const*volatile
volatile const**y,node={
    }
;register
    x
    const len{}