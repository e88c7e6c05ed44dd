not not not a=b||git| make |git ;for PATH in; switch (git&&ls) 
;end end