buf
    const y {}typedef enum count
    volatile
    count
( ),len;char
    int
const** volatile(
buf){
    break;
    for( ;
    ;)continue ;}
typedef
struct
count( buf)
    [
    ] ,
    * value[] , ** x[ ] [];bool
    _Bool double long volatile(
T)() ,
*
*restrict count
    ; volatile register restrict
const static
volatile
enum count{main ,
    }volatile const* restrict
    restrict
restrict buf
()()()(
auto
n
    )
    ,
    *volatile restrict(count
(
));enum{y ,x,main
,
y , count,}* const
restrict
    restrict* restrict volatile volatile
restrict(
    node )[][](
),** i []()
    ={},value={ }, n;T count{} const len const i {}