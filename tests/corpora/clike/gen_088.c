auto const extern
register restrict register enum
    buf{ buf
    , len, buf,main, main}(
    ** *const
*volatile volatile volatile i [] [ ]
    []
[])(
){restrict restrict auto extern
    struct{}*
    * volatile next()(),value,*buf[]={{ {}
    }
    ,}
; buf:default :goto
node; }inline extern
    const
    int unsigned signed
    float void int
    void signed
const*
    volatile
volatile volatile volatile * *volatile restrict const restrict
    restrict
    *const restrict const restrict
const
volatile restrict
    T
(enum len
    restrict restrict *
*const, restrict
    T) (enum
i
restrict volatile restrict
**const(T),count
y,float
    T(),...)
(_Bool
double,buf
    *)(){ }