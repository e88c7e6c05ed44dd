inline enum next{y
    ,main
    ,len,buf,i ,count ,main,}volatile const*restrict
    restrict const restrict *volatile
    volatile const
const*const const
const volatile
    restrict
    const
buf={{},} ;