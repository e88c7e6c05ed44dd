auto
y
i{}union
len volatile*node
    (){ continue; }auto enum{T,
}const volatile
    volatile
    T={{ {}} ,
};typedef size_t
int long volatile restrict
volatile
    volatile **restrict*const volatile(*len())
,*
    T (),*volatile
    len(
    );float
    short
size_t char **
    restrict volatile const
y ()(
    )()
(){
    typedef
    auto union x{}const volatile*next[],
count;}typedef union node{const count
    const
node;}restrict const volatile
    const volatile*
    volatile const restrict
restrict(next []
    [ ][
    ] )
;static volatile
    register
    static
    enum
    i
    {y,count}const volatile
    volatile
    volatile restrict
volatile volatile
node
    ={ },T;
    node
    restrict main{}restrict node
;