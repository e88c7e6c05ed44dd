switch"hello world"
 ;
end 
