switch echo 
 
;;;; end; function target -r -l -x -l -x; switch( echo );


 end; switch( origin| echo)
;; 
 ;end end