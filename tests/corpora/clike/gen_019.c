typedef
struct
y *const*restrict
    const const restrict*volatile volatile
restrict
    const
const((*y []))[], **count()(),*
    **volatile const( y)[],( main
) [ ]
    (register x
    restrict*, ...) ,(
    ** const(x ))[];
const
restrict const auto union{i const len;enum next *count (),value;enum
    y {len} **restrict( y ),buf,y;}restrict volatile
    volatile
    volatile volatile*volatile**restrict
    volatile volatile volatile volatile
    count [] ()(
    )
    ( restrict volatile
    register short
    int
**restrict(len) , auto
    main ,restrict const struct
    x { } *) ;count;