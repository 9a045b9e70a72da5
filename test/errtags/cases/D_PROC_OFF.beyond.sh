#!/bin/sh
# An offset past the end of the function. @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target:libc.so.6:getpid:ffffff'
