while README.md&&main &&not build/; return"hello world"; for target in; end end
; 
