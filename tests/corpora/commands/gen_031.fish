switch -r 
 ;end 
 
 
