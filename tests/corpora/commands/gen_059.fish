
switch(not not not build/); ;
 
; 
; end;if not not main |a=b&& build/&&origin &&a=b&&v1.2&& ls|README.md ||make||grep ||origin|| v1.2||v1.2 && ls ||main|src/*.rs | grep |v1.2| build/ >&2; break ;

 set --depth=1 -r target ""$HOME$argv[1] $files end