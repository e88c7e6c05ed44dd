set --force --depth=1 -x --depth=1 count$files '*.log'--force (README.md) ( not origin )
 for files in
;;;for x in origin;end

function x -l --depth=1 -x -x; switch'*.log' ; end end end;for x in; ; 
return
if not main |make;break else if origin
;return else if a=b&&ls 
 ; 
else;return "$HOME/bin"end end