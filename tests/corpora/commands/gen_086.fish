set count$files$status -r -l build/ ;function files
continue;; 
;end;