for count in -x README.md -r(grep)( not v1.2)-r(not not not origin)
end