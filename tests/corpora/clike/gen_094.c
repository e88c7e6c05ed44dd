enum{T
,count,buf,buf,}
volatile const
    restrict volatile volatile((
    *
*main()( )) ())
    []
{struct
    n{ }const restrict**const *i( )[]();break;}