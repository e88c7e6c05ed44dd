set -x -r -l -l --depth=1 --depth=1 count
if not not not README.md || ls&&README.md||src/*.rs |echo||a=b |a=b| make| origin 
else if README.md||git|| grep||build/ &&not main||git|main
 switch -x
 end ;continue;return end
