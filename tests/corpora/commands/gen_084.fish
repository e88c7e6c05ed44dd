return(echo&&a=b); for count in '*.log' (not build/ )
 
break;switch '*.log'
end ;
for PATH in

 set files end end

