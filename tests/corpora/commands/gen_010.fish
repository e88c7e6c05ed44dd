if not not not ls&&not build/|| origin &&not git&& not a=b||make|echo&&echo| git
 if main; break else;;break end 
 
else if not not origin||origin &&not build/||grep ;end