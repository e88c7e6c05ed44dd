restrict volatile
    volatile restrict
    union
    count{
    struct
    {}const restrict
*len() ;const restrict const
    enum {
count, }**const node[
](
    )
    ;enum n{main, buf}* restrict restrict(count)[] ,**volatile(i);}
restrict ;