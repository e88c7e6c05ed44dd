restrict
x restrict
value{}volatile short buf( )
    {;}int double const
restrict
volatile**restrict main[]
    ( ){return
    ; }
signed _Bool short
restrict
volatile const volatile**const i ( )()
={{{{}}},{}, {{},
}}
    ,x,*i;auto
register
union{
    }restrict
volatile volatile const
    const* * *volatile
restrict *restrict
    restrict
    (* *volatile y ()()){
    goto buf;
;
    i;
typedef static auto buf restrict volatile *
len
    [],next;}enum
i { next }*volatile
restrict volatile*const
volatile(
* n() ( ))[]
    {}enum{buf,buf,
next,n,
x,}volatile
n
{}restrict
buf;
x next
    {}