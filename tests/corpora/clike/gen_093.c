i
const;register restrict double*node[]{}enum len *node(
    )={ {{},}};typedef unsigned volatile restrict**const*restrict
restrict
(T)(),len
,node[ ],i
    []
    []
    ;volatile
restrict
    volatile
auto long
    char char
int** const*restrict restrict*
    restrict const
volatile
count[][]( )(extern
T
) {
    ;{}default:continue;
for
(typedef
    main
    volatile
node;;
    );
    }enum T{ next}const
const
volatile
    restrict * const
    len (y
    restrict* ),value= {{}},*
x()
    =
{
{{}
    , },{},},**const (main),node
={}
    ;typedef
    restrict count
    next
;
    inline value ;value T {
}