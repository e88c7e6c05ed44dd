set -l --depth=1 --depth=1 --depth=1 -x -x --force x$status grep $files $status-x README.md
