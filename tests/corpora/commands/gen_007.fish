if src/*.rs &&build/&&git|| build/ || not build/&& ls || echo||not main|| main||not git 
return; ;set files;for PATH in README.md ;; end
set count $status$HOME--depth=1 end
if not not not v1.2||grep && make||not echo||make||make&&make||src/*.rs &&a=b && build/ | src/*.rs|ls|ls | make 
for x in;end else if build/ 
else ;end