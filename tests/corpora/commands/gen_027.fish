set -x files
for PATH in 
 end; set target;;switch ( make ||main )
 ;;;;case $files ;case ""build/;
end
switch( not not git) ;;
end
 set x (a=b ) ( a=b||make ) (build/&&origin|| git || README.md)
