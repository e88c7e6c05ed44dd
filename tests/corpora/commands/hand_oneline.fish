if test -d out; rm -r out; end; mkdir -p out && cp -r src/* out/ | tee copy.log
