inline
const inline union n{len const
len
;
    char
    restrict
restrict*x
    ();}*const
    restrict volatile
    *(*
    node[
] )[
] ()=
    {{ {{{{{ }},
}} ,}
    },
    {},{{} , },{{}}
,{ {
{{
}
    ,
    },}}
,{ {
    {{
{ }} } , {},{{},}, }},
} ,**x (
)={{{ {},}
    ,}, }, **const*
    const
    const( node)[], *restrict* volatile const*
volatile const
    const(
*
const(y)) ;restrict
    const
    extern
inline extern
    restrict restrict
    x
next{}next
    const ;