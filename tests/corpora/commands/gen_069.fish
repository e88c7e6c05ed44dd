switch ( main|a=b|origin|origin || not ls||make) 
 ;end;