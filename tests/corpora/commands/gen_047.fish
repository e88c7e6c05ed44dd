while not make -x build/$argv[1];
not not main end