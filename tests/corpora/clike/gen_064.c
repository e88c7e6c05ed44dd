typedef const main const
i
    ;typedef static
static
union{}volatile const *node[],T;struct{
    }
    const restrict
const**const
    (buf) {
    }typedef
inline
    register static buf
const
volatile
restrict restrict
x[]
,value, *i [],**restrict
    buf[]
; struct{}volatile restrict volatile volatile volatile(*
    *volatile buf[][])
    {{ }
    typedef int restrict restrict next[ ],node
;}typedef
    auto volatile
struct{extern
next x;
    }
    *volatile restrict restrict
volatile(*volatile*const next),i,*len(
),(n),(x)(),* volatile
    const*const(n
[]( ))
;typedef
auto static x
    buf,main
; restrict
node count{}T buf
    {}