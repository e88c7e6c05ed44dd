restrict
    extern restrict
    volatile
    auto struct
node{main volatile
value; } (**i()( ))
(){}auto
    volatile
extern restrict const const union
    next{buf value;struct
    node{} *buf [] ;} *const main
    []( )( ),(buf)(
)( );volatile
    restrict auto
    volatile
    static inline
    inline
register bool
short char double char double
_Bool const restrict volatile restrict volatile volatile (*n[])[]()[](){ union {}restrict volatile
const;
typedef
double** volatile
    *(x)
    (),y,* len(
), *
*
    restrict
    value[][]
    ;typedef size_t
    char
size_t
signed
const
    volatile
    const volatile
const
    ** restrict**y,value
;} auto value const ;