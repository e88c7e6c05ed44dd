function files
;
 ;
set x; if echo | origin
set target build/ end end