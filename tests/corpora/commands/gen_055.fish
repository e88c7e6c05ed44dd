if main&&grep&&src/*.rs&&not a=b || make ||src/*.rs ||ls&&a=b&& not echo&& origin&&echo&&not git||not git --force>&2>>v1.2 
for PATH in;;return ; end ; end