for target in src/*.rs --force$argv[1]( make ) (main||src/*.rs)( ls&&ls||not grep) ;break ;;
end;