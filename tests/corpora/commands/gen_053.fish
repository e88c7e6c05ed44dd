switch --depth=1 
end;for files in;if README.md

end
 end;function count -r -x --force
function files --depth=1 --depth=1
return end;;end