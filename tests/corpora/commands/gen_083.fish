function files -l -x -l --depth=1 --force --depth=1 -x;return echo ; switch grep;
end ; git

 set PATH ""build/ -r( grep )end