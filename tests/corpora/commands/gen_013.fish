function PATH --force -l --depth=1 --force -r;switch'*.log'
;case origin
case$HOME -r
; end end