main;volatile const union next{}
n[
    ]
    {break
    ;}struct
i {} **
restrict
count(
)() {{ }}enum
    value{i ,
i
} count
( )[ ]
[
    ]
    {
break;typedef main const
node;}
    size_t
    void short **restrict*restrict(*node()) ,*
    next[
    ]={{{ }
} ,},n; const
volatile volatile
    enum
    { value,n ,node ,i }restrict(*
len[])
    [](bool)
    {;i:continue
;volatile T ; return ;for(unsigned
    volatile volatile
len ;;)continue;}const const
const volatile register
static value;restrict volatile struct x{
extern buf const buf ;count
    buf;count const next; }y,buf;n const
y{}