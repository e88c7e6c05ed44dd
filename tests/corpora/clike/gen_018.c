extern
    const
    T
    restrict restrict volatile
const
    restrict
    volatile restrict*
    restrict volatile*volatile
restrict const restrict*restrict restrict volatile const
volatile(*const main(
)[])[](size_t signed,const const
    struct{
}volatile
const,
...){
;{}len;default:
    {}default:return;const
const
auto
restrict x** restrict
main[][ ],next ,*i={
{{},},};} void void
    char
float
    bool* *restrict*const
    const*restrict restrict volatile*
    restrict*
    volatile volatile volatile const volatile *const
restrict
    restrict
    const volatile
    const (*const count()){} union {
restrict value
const
i;auto volatile
long restrict
    const*T ()
;extern
    const len n;volatile next volatile
T;}count{}