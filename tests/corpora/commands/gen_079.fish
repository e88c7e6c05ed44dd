begin;if a=b&&a=b 
 return
 return'*.log'else if v1.2
 ;set target else
end;return(grep |src/*.rs)end