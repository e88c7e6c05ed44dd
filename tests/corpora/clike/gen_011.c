_Bool bool
void *
**const volatile *restrict const const*
    **restrict
    restrict restrict buf[][
    ]{typedef
struct value restrict restrict
    volatile volatile
    restrict buf(),*x(),**const
(main),*
volatile restrict
    main;}
const auto
    volatile
auto
static auto
    extern
    volatile
    union
    n{ extern y
y ;
struct
    count
const
volatile
    i[],
buf ;
    volatile struct i T()[],*x()
; register register extern restrict
enum next{len,buf,
}*
    **
volatile
volatile(count)
();
    }restrict;