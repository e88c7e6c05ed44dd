function x --force -x -r -x --force

break

set count -l
end ;
 for x in ( not build/ ) ( build/ &&v1.2|| ls&&grep ) (git||README.md&&make&&v1.2&&ls||make ||make&& echo)
 if echo||src/*.rs;end 
 if not make |make ; set target ;return"";set -r --depth=1 x make else if git;else if README.md; end end