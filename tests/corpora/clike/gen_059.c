const
    restrict
inline
    static enum{x,n};
    static register
restrict auto register
    signed
    size_t restrict restrict
volatile const count ()[][
    ][]{ restrict
    buf;enum value
buf =
{{ },};}struct
    {
    T restrict buf ;}const
const restrict restrict restrict***volatile
    const*node;void restrict
    volatile restrict volatile ***restrict restrict*restrict
    const* *volatile restrict( **restrict
    i)(union buf
const restrict*,inline main restrict
T)[]{inline restrict struct {
    } volatile
    const x ={{}} ;for (;; )i :default: {}typedef
    extern
    register
    register extern enum len{
buf,main
}restrict
const*const volatile(*T())
, next;}
    restrict buf y{}typedef
    main T;