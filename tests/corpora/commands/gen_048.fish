if v1.2'*.log'2>&1|ls |src/*.rs | a=b| ls&&a=b || git||build/ &&main||not a=b&&v1.2|| origin&& not ls&& not echo||grep|| origin|| main&& main|| not build/|| ls ||main &&a=b ;; else
return ; switch (ls||make) ;;
;case "hello world"
case $files git ;;set PATH end end