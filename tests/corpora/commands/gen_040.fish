if not a=b|main|README.md ;continue ; ;
 set -l -x count else ;return 
set -l PATH
for PATH in
end;for target in;;break end end ; set -l --force -l -r --depth=1 files a=b"$HOME/bin"-l( main&&src/*.rs ||not build/) 
