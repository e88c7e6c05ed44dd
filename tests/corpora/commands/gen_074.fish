switch"$HOME/bin"; ; ; ;case$argv[1]
end 
for count in
 return'*.log'end

 ;if grep|main |grep|git"hello world" |a=b |origin| echo|v1.2| v1.2>&2| ls|ls|grep|a=b |echo| build/|ls|main |ls |git | main |v1.2|README.md | git;if main| grep |ls| grep 
 set count "" else if a=b 
end else if grep; end