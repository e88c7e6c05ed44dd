typedef
    const
    union{} const* * *restrict
    const i;struct node {}restrict restrict restrict
    const
volatile(
    *
main)
    ,buf,len[] ={{
    {}}
    ,}
, count[ ][]
    ={
    {{},},{ },{{}} }; register const
static union node{static len volatile
T;}restrict volatile
    const const volatile volatile*restrict const*const
    const
len{ ;break;typedef
x restrict node;_Bool
const
volatile;typedef
    volatile
    volatile restrict
    enum {buf
}restrict**restrict
main
    [],buf,*T( )
;
    }enum T{ next, }const const
volatile
    const**restrict*volatile
volatile
    * const volatile* const const
    const volatile*volatile n
    {}
    typedef value
const node
;typedef
value
    restrict
len;