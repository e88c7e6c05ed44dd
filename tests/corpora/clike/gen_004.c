typedef
size_t*const
    restrict
restrict
const
    restrict volatile const T()
,buf, **const T()[]
,*
**(
    n()) ,(next)[
]
    (value volatile x ),(**volatile
    (len
))(enum
T*
    T[],buf
    restrict
y),(*
*volatile* volatile*
volatile
const const( T)
    []), *
    *volatile*const volatile
*const const
restrict* *
volatile restrict
restrict
const
volatile*restrict restrict len()[
    ](register len volatile*,...)[]( union
T{} ,len
volatile*,
extern
    const
signed
restrict restrict
    * * volatile,...) ();