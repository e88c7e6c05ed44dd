
return (git|main |build/| src/*.rs|src/*.rs 2>&1|git|main| ls |v1.2|grep |make )