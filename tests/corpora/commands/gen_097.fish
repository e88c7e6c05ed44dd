if not not build/||make|| not main&&make &&main &&a=b&&origin ||not git ;switch ( src/*.rs ); 
 ;
case "$HOME/bin";end else if git ;
 else if main&& grep 
continue else if make&& src/*.rs||a=b|| README.md; ;else if not origin ||not origin&&not a=b||origin&&main ; set target; 
continue
while grep; ; end end;continue