return -r 
 ;set --depth=1 PATH
 if not origin|| make||echo;continue else if main 
 continue else if grep||main 
;set target;else if README.md |v1.2 && git||v1.2
begin 
 end else 
if README.md; 
else; set count end end
 set --force --force count(grep ||grep)(not make );return( not not not src/*.rs&&not main&&v1.2||src/*.rs )