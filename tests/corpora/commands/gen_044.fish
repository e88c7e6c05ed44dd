
 begin;end