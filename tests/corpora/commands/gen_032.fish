switch '*.log'
case --force;case"" $files;; case $files origin a=b
end 
function target --depth=1 
return $status
end
