volatile auto double short short double
    short char int
    char*
    restrict
    const const
volatile volatile(
***volatile volatile*const const*main)( volatile
    const
extern volatile union{
} restrict
    const const const volatile n
    ,struct main
const * count [],restrict inline static struct next
{
    }* *restrict*volatile restrict,restrict
extern _Bool restrict,
...){}