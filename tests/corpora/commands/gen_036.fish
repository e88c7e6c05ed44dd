set -r -l --force x "hello world"'*.log'; while git||main
 set PATH
continue end 
; begin
 function files -l 
 return end end;; function PATH -l
 if not not a=b 
switch'*.log' 
 end;return make else; switch --depth=1;;end end end