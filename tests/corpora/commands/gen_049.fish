begin;function target -r; break end;continue end
