typedef
    buf
T;
static
    register
    struct{ }*count(){return
    ;
    }volatile restrict
    restrict
enum{count}
**volatile
    y()
{}auto
    static
    inline
    restrict
    struct
main {}node[] [][
]
{}typedef
enum
T{y}
***restrict
    const
    *
restrict count[][
    ][](
    main
    buf, ...),* n [],**volatile i[](
) ,( buf
)[];
union{auto len y;}
    T[]()(){typedef
    const
    register
    static struct
{}
**count []();}
typedef
    restrict
    struct
len
    {
    auto
    next
    T;enum
    value* buf[]
, count;}**volatile *
    restrict*
    ** x, T;static T
    x{}const
main n
{}