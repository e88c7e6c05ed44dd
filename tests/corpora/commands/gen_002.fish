switch (not not main &&build/ ||not echo && origin|| ls )
; case $status ;case a=b
 
 return case echo --force
set files;continue case --depth=1 $HOME'*.log'(echo)
return; return v1.2; case -r --depth=1 --force(src/*.rs)-r; end