switch(make &&echo&& not main ||not build/&&a=b&& src/*.rs &&not ls&&origin||README.md ||README.md || echo&&build/);case( not echo )
 set -r files;
if a=b ;; else
 
end end