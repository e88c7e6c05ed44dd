
 
 function PATH
 end;if origin ; 
end
 
;set target echo( README.md)( grep&&src/*.rs)
 if not not src/*.rs&& build/&& not main ||grep&&echo|| a=b || v1.2 ||git&& README.md;switch (grep)
 
 
; case"hello world"
end else
while v1.2 ; end end
switch (not ls||make&&echo&& build/&&v1.2) ;case --force;end