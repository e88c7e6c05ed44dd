if build/ ||make||grep&&origin

 
 
 for x in
end end
set -x -r -r -l -r --force PATH -l -r"$HOME/bin"(echo)(src/*.rs&& origin); set count -l'*.log'""'*.log'(v1.2&&a=b ) (not not git);not git | README.md | v1.2|origin|make>&2|main|v1.2|src/*.rs|echo| ls '*.log' 2>&1