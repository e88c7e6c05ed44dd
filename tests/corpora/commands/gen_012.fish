;begin;end
if src/*.rs&& README.md&&not echo && a=b|README.md|main| origin 
if ls

else
; end else 


 ;;end
switch(src/*.rs|git&&not ls&&grep&&echo &&grep &&main)
;
; end 
set count (main) $status( main| git ||build/ &&origin)( not not make||ls)