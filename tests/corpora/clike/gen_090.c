volatile
    volatile
static
    const static
    volatile
auto
    enum{T,} **const*const*restrict*restrict*
volatile restrict
restrict
    volatile restrict *const
    restrict
    restrict const volatile volatile i
()
{ {
    return;;}
    }register enum
    T{len,next,}volatile volatile
const
    value(restrict
volatile
register
    restrict bool void char,
    enum{len }** volatile(main)
    );