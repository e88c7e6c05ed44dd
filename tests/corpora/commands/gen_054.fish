switch(README.md) ; 
 ;; case -r 
 end
for count in$argv[1](grep)
 set target ;
 function count -r -r
end end
 break;switch$status 
;

; ; 
 case -l ; case $files
 ; return case "$HOME/bin" origin"hello world"
switch -r ;end case$status echo'*.log'--depth=1;end;