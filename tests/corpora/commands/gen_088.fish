function x;end; if not not origin||make && README.md||not main &&main&&ls || ls&&README.md||make|| not v1.2||not build/ | main&&origin |ls |ls|main|git|grep |main |ls
 
if origin&&echo&&a=b &&origin
 ;set PATH;
else;end else; return end