if a=b&&src/*.rs&&README.md&&v1.2|| origin|echo |ls|ls&& v1.2 |echo|grep |make|make|origin ;return
src/*.rs
else;set x README.md $status end ;