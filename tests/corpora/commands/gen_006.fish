if not not v1.2|| ls ||not v1.2 &&echo||v1.2 
set -l files end;