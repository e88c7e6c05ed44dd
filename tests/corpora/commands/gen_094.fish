function x -x --depth=1 -l -l -l
 
 ls ; end ; set -x files