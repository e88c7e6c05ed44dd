for target in 
 ;set x;;return end
if not ls||main&&echo &&git;set -r --depth=1 PATH $HOME 
 end
 while not a=b||git || not a=b|| main ||grep&&README.md| build/&&make&&build/ &&not main||not ls
 break;;end 
function PATH;function target --depth=1 --depth=1 ;;break 
switch -r 
end end;end