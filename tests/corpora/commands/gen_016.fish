if not main|src/*.rs|a=b|grep ;set -x -x count end

 if a=b>&22> ""||main &&a=b&& src/*.rs||grep&&src/*.rs |build/|grep ||echo ||ls&&make||src/*.rs&&ls&& origin&&make &&origin ||not not src/*.rs&& build/|git| a=b| origin ; set files else if a=b &&origin||not a=b ;
 
 function PATH
end else if build/
else if ls
 else ;end