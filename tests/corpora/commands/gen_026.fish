if not src/*.rs||ls&&build/&&main|| origin||main;return;
 return$HOME ;git else 
return make end
 function PATH; set --force -r PATH; git;for count in$status make src/*.rs
 return"$HOME/bin"end end
switch(not v1.2||ls || ls &&grep&&build/ ||build/||ls |git|main| origin |README.md | ls|src/*.rs)
 ;end