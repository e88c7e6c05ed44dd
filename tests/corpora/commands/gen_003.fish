for count in; function target 
end;; while build/ ||v1.2

 break
 end end
function count

while README.md 
 
continue end

 end