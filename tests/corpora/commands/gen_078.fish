switch(git | v1.2||main&&ls&&v1.2&&a=b &&src/*.rs|| grep&&grep README.md)
 
end