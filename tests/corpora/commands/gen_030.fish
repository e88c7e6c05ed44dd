for count in 
end; ;