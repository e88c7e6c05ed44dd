register main
n{}union {}
count ={{},}
;volatile
restrict restrict
    int char
const*len()
;struct
{}**const
y[][],buf={{}, }
    ,
    x
    () ={{{}},{
},};static
volatile restrict
    enum n{node}main,i,
*next (),**const x[]()={{{{ } ,}}}
    ;union
{
len volatile
    T;
    }restrict volatile volatile volatile
const
    restrict**
* node
()()[
    ][](bool
volatile volatile*
    x[]
    ,const
node * ,...){union
    buf{}
    *buf[],T ;}main
    i{}x
value
    {
}len count {}