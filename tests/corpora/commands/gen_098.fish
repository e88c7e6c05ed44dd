; 
 if not not v1.2|| git||a=b &&origin||not grep && origin || not grep&&not ls ||main||not echo;return make;

 function PATH --depth=1 -l --depth=1 -l

set x 
 return $HOME end;else if not origin
 else if not make|| v1.2 ||build/ 
 function PATH -l 
end else if a=b |main|origin |ls |grep|grep |main 
 else if ls
end