set files
set PATH -r 
set --depth=1 -l --depth=1 files git --depth=1 
if echo|| make

else;end
if not v1.2 &&origin;else if not build/
 switch -x 
end end


for files in( make) ( echo )( src/*.rs||a=b && not build/)(origin |a=b| build/| src/*.rs$status>&2);set -r count -r;for target in""
 end
set target
return end