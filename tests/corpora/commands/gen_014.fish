function files
break
return 
set target make
README.md end; set -x count 
switch(not not not src/*.rs&& not not build/&&src/*.rs )
end