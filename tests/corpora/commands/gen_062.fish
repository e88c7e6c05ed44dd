v1.2 ""| git | origin|README.md&&not git&&echo||main ||not main&&origin||echo 
return (echo&&build/ ||ls && build/||build/&&echo || not grep||not ls ||echo&&origin&& a=b)