typedef enum y{
    main}* volatile const volatile
volatile*const restrict volatile const volatile const
restrict(value[
]()[]( union buf{}**const,n value
) )(enum node {x,
node, len
,}volatile, restrict
count* ,len ,float void const const
volatile,value * *const* restrict volatile
count [
][] []),buf,*i, **volatile y()
    [
    ]
,
value
, **
    const*
    volatile
    *buf []()( )()
,* *volatile*volatile** const restrict
volatile
    restrict(len )( )()(),**
restrict
    *const
    const
*const
*restrict restrict
volatile*restrict
    restrict restrict const volatile
    i,y;