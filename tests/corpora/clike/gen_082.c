volatile main len{}_Bool T() {continue
;}volatile static extern
signed
    signed
const
    * main()= {{ {
}},},main;long
    void
    float const const
const
volatile*
*const*restrict restrict(main()){
    for( ; ;)
; for(;;
    ) continue;}restrict const volatile const
static
i volatile;volatile
static volatile restrict
    enum{y,buf,
buf,buf}volatile
    const volatile const volatile
const
*
volatile restrict
*const restrict(**volatile*volatile
count(
    )()
    [ ]){ typedef
x
restrict
x
    ; continue;n:
continue;}typedef
    volatile
    register
    restrict
volatile volatile restrict n*
*restrict*restrict*const*restrict restrict
*const
    const
volatile count,node;next
restrict x {}typedef node node;