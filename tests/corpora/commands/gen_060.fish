
 return 
if not not main&& echo||v1.2&& a=b|grep |main | make
;switch -x; end ; ; 
else if build/
 else if not src/*.rs
else if not ls
 return
 break;continue else if not not grep &&not build/||origin||build/ ;function count --depth=1 --force 
end
end;