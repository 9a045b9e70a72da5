#!/bin/sh
# A function the named module does not have. @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target:libc.so.6:no_such_function_here:entry'
