restrict
    enum
T{i , len,i ,next
    }*const*volatile const restrict
    restrict restrict(*x [ ])( restrict
value const*)
(
) [
];union
next {auto
    n
    const main;enum
    buf*
    n(
    ) ;char
    *const
len[ ]();
    volatile
register volatile restrict struct
    next
{}**
    restrict*restrict const
    (*count()
),value,*y [ ],**const
    count
[ ] [] ;}
    *(**const(buf))( enum T
    volatile const*x ( ),volatile value
    y)[ ][](signed**const **restrict volatile
    restrict
(
*restrict(main)),buf volatile*,double**
,auto
    y const *,
    restrict count x){
}