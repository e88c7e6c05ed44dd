long *const
    const volatile(*
    value( ) )()(volatile volatile union count{}**
,
n
    restrict, ...) []{enum{node,value,}
    volatile restrict**volatile len [
    ](),len
, * node( ) ;}restrict
restrict
register
    register
    extern union buf{
    register
    T
const n ;enum
    T*node() ,i;buf const const
const y,y,n();}*restrict volatile*
const volatile
    restrict
    const*(
    n()())[]( )=
{ {{{{} , {{{},
    },
{}}
    },{}
,
    {{}},{{{}} },{ {{{}} ,{}
,},}
    }
    }};
restrict
value n{ }