begin
set -r -r x;end ;for PATH in"$HOME/bin"--depth=1 $status( grep) (grep||README.md )(v1.2 || src/*.rs ||not origin);continue; 
 ;
switch(a=b)
end end;