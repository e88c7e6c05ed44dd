set files; switch git
 case README.md
case build/;set files case main ""v1.2;return;end; 
make|README.md|make|ls | v1.2|ls|echo|ls |git|git|origin| main | build/|a=b||not not README.md ||not make&&not origin && src/*.rs||git |echo| echo