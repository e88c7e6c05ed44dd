union
    x{x
i;
    extern restrict
enum
count *x() ,main;
    }const const volatile const
    const
    *
    restrict const
    volatile
*volatile((count))( restrict const enum value,value
    T)={
{{{
    }} },
    {},}
    ;enum
n
{T}const
const
    restrict
    const volatile
restrict const
    const*
    restrict
restrict const
*
    volatile const volatile
    *(
    **const* *restrict const
restrict
count()()[](
auto node
    *) ),T,* len[]={
    {},
{ }
,
},**
( value),buf[
],
    **volatile *restrict restrict*(next)[](buf
volatile *,...) ,x
[](
    )()[] (
    n volatile)=
    {}; buf
    volatile
    ;