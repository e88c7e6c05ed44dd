if src/*.rs -l |src/*.rs|main|echo|git $files >&2|v1.2|README.md | git| main|README.md |src/*.rs|src/*.rs|build/|README.md| grep |origin|v1.2|README.md| a=b|make| ls|git |v1.2 ; 
end