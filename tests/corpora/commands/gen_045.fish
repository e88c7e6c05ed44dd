if not grep||main||not git|| not not grep
 switch"$HOME/bin" ;
end
 begin 

 set target end;else if README.md |README.md|origin |origin | origin |v1.2 | git | git
; set PATH
set --force -x x -r
begin ;
 continue end else ; main||grep end
for files in
 switch a=b; 


 end; begin
return end end