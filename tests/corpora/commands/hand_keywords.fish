echo if then else end for in while do done
set set set
grep -n function src/*.fish | sort -u
