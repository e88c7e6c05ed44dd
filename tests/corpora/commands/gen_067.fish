if not not ls ||a=b||make||src/*.rs||echo
break
end 
 ;