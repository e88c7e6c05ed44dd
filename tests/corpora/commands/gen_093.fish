if not git&& origin&& a=b||grep ||echo||origin|| v1.2;break; ;begin 
end 
return $argv[1] else ; switch$argv[1]
 ; end end
;if not README.md || a=b ||README.md&&README.md||not a=b&&a=b ||origin&&main&&ls&& README.md||grep || origin||not build/&&ls |origin|v1.2 | README.md |ls|make|a=b| make 
end