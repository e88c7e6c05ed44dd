enum{node
    ,T , node,T
}restrict restrict
restrict volatile
    volatile* volatile restrict* restrict restrict restrict *(** *node[] []()
) {
    typedef main
restrict x
    ;
default :for(
    ;;)default:break
;
    for(typedef
extern
    void restrict
    volatile*T [],n;;
    )goto
len;
    }typedef restrict
extern auto
    auto
    register
extern
    register
float
    long
    _Bool
    void
    size_t restrict const
    volatile
restrict
    volatile restrict const*const const
restrict*restrict const*volatile volatile volatile restrict
volatile(*node
    ()())
(enum i
    restrict volatile*value[], node *
,...)[ ]
, i,*main(),**const
    main()(
),*
    *restrict*y,y,n;typedef
y volatile
    buf
    ;extern next;