typedef enum n
const const* len(),len
;static
    auto const enum y{buf
    , }main()(
    ){continue ;count:break;} volatile
extern static
auto
union
main{
    } **const value[ ]={
{{{}
    }
    ,{}}, {},
    {{
    }} ,}
    ,*x()
    ;enum next
{ y ,
    }restrict
    restrict volatile volatile const*
    *const* (*count)= {{
{{
{} }
,{}}},} ;typedef
    inline
    static
    const
    restrict static
    volatile bool*restrict*volatile
    T ,len,*i[],
*const( len) ,*const
    restrict
(x)(),** const *
restrict*x
; T;static buf
volatile
    i{
    }register
count restrict buf{}