set PATH
for x in; end
 ;
; ;if not not grep &&git&& v1.2&&main||grep&&not main | v1.2 ||not build/&& ls||a=b ;

 ;;set -x x 
begin; ; switch $HOME
end end end
if not not git||main&&a=b|| git || a=b ||not main||ls&&ls && ls ||not not echo|| echo || make;else if git;else;end