unsigned int int size_t
    restrict
const volatile
const
const
    restrict volatile volatile restrict(*const
    restrict
    volatile
    restrict*restrict const const restrict const( *volatile** restrict
    volatile const
    T[] [ ] ()[])){{for(;
    ;) default:return;{}{
    continue;{}}}}