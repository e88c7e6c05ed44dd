if echo;;break 
return 

 begin
set PATH end end;;for x in ; set --force --depth=1 --depth=1 PATH make echo
not echo ;end