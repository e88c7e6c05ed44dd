restrict union
    i
    {};
union
buf *const*restrict x
    ( )() []{{ } default :next :break
    ;
}register restrict const restrict static enum x const
volatile volatile
    volatile restrict*restrict volatile
    *i( T volatile
    T ){ goto
y;
static x restrict; for(;; )
    goto node;}union
{ register
    buf
main;
}volatile const restrict
    restrict restrict const***restrict
    volatile
    *volatile(** volatile( count));typedef
int
const*restrict
restrict* *restrict
restrict
restrict*restrict
    restrict const
restrict restrict (* * const
*const
    const*volatile
volatile
    restrict T []()() ())
    , *** volatile const
    x()
    ()
[
] ,***
*next
,len;next;x volatile main
    {}