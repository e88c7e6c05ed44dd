function files ;function count -x -x ;end

for files in a=b -r"hello world"

switch --force;end end end ;begin;
end