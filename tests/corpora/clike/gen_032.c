volatile static
restrict auto restrict inline inline
restrict static _Bool float
    const **
* const const* volatile volatile
restrict*restrict
restrict const
restrict *volatile restrict
    const const*
    restrict
    const volatile
    volatile restrict const (
*
**
const
    restrict*
const
volatile volatile(i)[]())
(
    ) ;