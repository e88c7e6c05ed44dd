auto
extern inline
    restrict
const
    inline union{n volatile
    const* len(),node;}volatile
    restrict;
    static
    static
    volatile
static next
const const volatile; register volatile static
    volatile volatile
    const
auto
auto
    value* const const volatile volatile volatile *
const
const volatile *restrict( * const
    volatile*const
const const*volatile
    restrict volatile
restrict *volatile
    restrict
volatile
buf
    [
    ] ){
default:break
;typedef
inline
value
    restrict
len
    ;{;}{ return;for( ;;)continue; } typedef
inline const
restrict extern
enum
    next{count,i} volatile const
    const restrict**restrict*volatile i[][ ]
[],T
,x() , **volatile
    node[][];typedef
    inline
restrict
    static
    enum n{ next , buf,} len, value
;typedef len
buf
;}