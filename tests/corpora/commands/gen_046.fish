set --force PATH -r"hello world" -x;
 ;;