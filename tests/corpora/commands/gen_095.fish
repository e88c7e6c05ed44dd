set x(ls||echo||v1.2||grep)
