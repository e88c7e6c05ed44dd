switch ( not not a=b&&a=b&&not a=b||grep &&v1.2|| src/*.rs) ;;;case (src/*.rs)
function PATH --force -x; end case """hello world"echo (grep) ( git &&v1.2)
 
for PATH in -x;
end end