begin; ;
 switch README.md
end
end 
set x (v1.2 &&make)
set count ( echo)( a=b&&README.md)( not build/||ls&& make);