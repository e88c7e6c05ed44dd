for target in;;switch"hello world" ; end 
begin
end 

switch(main) 
 case origin;end; end