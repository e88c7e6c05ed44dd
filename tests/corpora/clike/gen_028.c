register
    register
restrict
    const inline
    _Bool float***volatile restrict(main()
    )= {
{{{{},
} ,{}
    ,},
}
    } ;double unsigned size_t*volatile const volatile(*main)()(){main:{}
    ; }char float
int
size_t
    unsigned
    i(const
    n
    n, ...)
[][]{{ ;{
}n; }
    } struct{count volatile x;restrict
    inline
    enum
main
    restrict restrict*
len [],n
; union
node {}**
    restrict
len()(),len,T();}**volatile * const
    restrict*restrict
    volatile
    restrict
*volatile
volatile const
restrict*const
i()
[]
[] (
volatile n volatile *,... )[ ]
    (), i;buf;