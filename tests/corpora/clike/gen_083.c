restrict extern
long
long signed short float volatile
    const volatile
volatile const const
    *volatile
restrict
volatile* value { return
    ;typedef
const
    len const
    n
; default :continue;for (;;)for(typedef
value volatile
x;;)n:{} }
    restrict
    inline const static
    restrict auto
    restrict
enum y{x}restrict const
    const*volatile*volatile
    restrict*
const const* const*const
n()( )()(const
node restrict
    i,...)[](restrict enum T{
    i
    ,},static buf value,volatile volatile
enum T**volatile,...) {static const
enum{value, }*len[]
, buf
    ;T:node:{
    ;} }typedef enum {y
    }restrict restrict
    restrict*volatile*
    *
    **
*
node
    ,x;register i volatile
    n{}