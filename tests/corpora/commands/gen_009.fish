switch ( a=b)
;;end ; 
if not not src/*.rs ||echo |v1.2|make;origin else; return end 
for x in a=b"$HOME/bin"-r (src/*.rs&&grep)( not origin||grep);set --depth=1 --depth=1 target 

 if make||make
 
break; continue else if git ; 
 return else 
break
return"hello world" end end
