function backup --description "Archive a folder with a date stamp"
    set -l src $argv[1]
    set -l stamp (date +%Y-%m-%d)
    if test -z $src
        echo "usage: backup DIR"
        return 1
    else if not test -d $src
        echo "$src is not a directory"
        return 2
    end
    tar -czf /backups/$stamp.tar.gz $src > /dev/null
    find /backups -name '*.tar.gz' -mtime +30 | xargs rm -f
end
backup ~/documents
