register
const
short*x[]
    {break
;}static extern struct{}**
    restrict
n[] (){break;{} }extern
    extern restrict struct
{} *
*
    const
    *(* node[ ]) {break ;for(;;)goto main ; default
:{}}static extern
    static struct
n volatile restrict restrict volatile*
*const* const
    const( *next )
;enum x{i
    }restrict
restrict volatile**
    volatile*volatile *volatile const
restrict count [
]()
    [
    ][]
    ,** volatile *const restrict(
value) ()={{ {{{ }}
,
{},
},
    } ,}; struct
len{ restrict
n value
    ;
static
struct
    i{}volatile i,count;};main;main
    restrict node {}