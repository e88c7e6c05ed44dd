while ls""2>&1|grep 2>&1|build/|a=b|git| origin a=b| a=b$HOME$status>make|origin|a=b| grep |README.md| ls|make |grep| ls;switch$HOME 
 ;;end;while not main

return 
return v1.2 end ;end