# Count errors per service in today's logs
set -l total 0
for f in /var/log/app/*.log
    set -l n (grep -c ERROR $f)
    if test $n -gt 0
        echo $f: $n errors
        set total (math $total + $n)
    end
end
echo total: $total; test $total -eq 0
