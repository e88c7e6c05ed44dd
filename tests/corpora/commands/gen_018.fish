function x -r -r --force -r -l --force --depth=1 -x
;break ; 
set count README.md ;for x in; end 
 ; end