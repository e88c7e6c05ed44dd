restrict
const union
n{ } i={{
}}; short
    _Bool
    const
volatile
const
    len
()={{}
    , },main; restrict const
const
restrict enum {node
,
    y ,
}restrict
restrict
    restrict
    const n(
)[];
    restrict static auto enum x {i,y, T} restrict*volatile
* volatile const
    *const
    buf(register
    main node, ...
    )
    { continue
    ;{}
{}typedef extern
    restrict struct
value{
    }
    *n[ ]
    ,next;}const
register inline
    register const
register
enum{count,len
    }
*const restrict*volatile const
volatile
*
restrict restrict restrict volatile
len [] ()(float restrict const
**restrict,restrict
len restrict,...){}union{const
y node;x
y;
}volatile count{} node
x{}typedef T
node;