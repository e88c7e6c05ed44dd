
function count
if not main
; break end
 end