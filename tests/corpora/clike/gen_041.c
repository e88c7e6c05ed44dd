volatile
    y
    restrict len{} typedef
    const
    signed*main (),
T ;enum next{ count,
}volatile const restrict**( T
){;value:
continue;
}enum
    {n
    }const restrict volatile* volatile( main)={ { {{},}
    , { }},{} ,{
{}
    ,},} ,* len();auto extern
enum
    value{y
    , next,y,
}volatile*const
    const
    volatile
i
    ( )[][](T* ,...){typedef buf restrict
    main; default:{}} y **
    restrict *restrict* const
    volatile volatile (** const len )
,
**
const
    main()[][
]={{
    {{ },{} },{}
,},}; const i;node;volatile next
volatile;