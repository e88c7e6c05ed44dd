enum{value, buf,}(
n )
[
](){
    ; } typedef union{auto
T restrict count ;
}*const
volatile T()()(
),next
,* count [],*restrict
    main[ ]() ,* *
volatile*
volatile
    volatile
value
    []
    [](),**
*restrict*
const
    restrict
    volatile(*value[])(
    )
    ;volatile
    restrict
    auto
    restrict main*volatile*restrict
    volatile volatile *volatile
    const const
    volatile*(**restrict*restrict
    const* volatile
restrict
const buf()
    ( main
*)){enum{ len ,}*T
()={{
    {} },{} ,}
    ,T={{ } ,};for (;;)continue;}
    len restrict
;const
T
restrict x{ }