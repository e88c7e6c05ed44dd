struct
    i{}*y(){}
const
const
extern enum i{i}
const
restrict;auto restrict
static
    static union count{} ** restrict count [][],n ={
}, *value[]
;restrict inline
    auto const
volatile enum{
next ,
next,x,
    }*volatile**restrict value ()[][ ](){} register
    int
    unsigned
short unsigned
    **volatile *
    volatile restrict**
    restrict restrict volatile(** (node))
(char restrict * *restrict,T
len,
...
    ){{break;{}}} union node
{
    const restrict
    struct T{}
volatile
restrict* len(), main;} (
*count
( ))(len
    volatile*, ...) [],
    y={}; inline
x
const; typedef static T
    restrict count;