switch(not not main | origin|| not v1.2 ) ; case -x v1.2""-x( echo||origin);begin
end ;end