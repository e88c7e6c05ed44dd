;if not not build/||ls||main ||ls||build/ || origin&& git&& git&&a=b||grep || a=b ||build/
 else if main|| main
 
return 
return "hello world"else if ls&&make||not ls 
continue;function files -l
 end else if origin&&make|| not origin &&not ls ||not main
;
switch $status
;end; else
end;