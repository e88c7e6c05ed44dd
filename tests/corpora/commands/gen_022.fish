function x --force --force -l -r -r --depth=1 --depth=1 -r
 
 ;end