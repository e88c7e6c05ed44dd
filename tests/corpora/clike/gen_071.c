char char signed volatile volatile
    volatile
    restrict const
    volatile **
volatile* volatile
    const*( main) ()( main
const
count, ...)={{{{
    {},{}}
,}
    , }
,},len
={{},},*y
    []={
    },*count(
    )
[]={{ {
    {} } ,{} },{},{{},}},*restrict * restrict const
    ( len)[]
; restrict
    long volatile*const const
    const*count[
    ]
    ( )( )
,i
={ { }},count[
    ]={
    {{},},{}
    ,}
,(n)
    ,main(),*const ** i={};x y
{}x
    const buf{}