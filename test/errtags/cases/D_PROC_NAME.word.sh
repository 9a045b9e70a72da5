#!/bin/sh
# A pid probe name that is neither entry, return nor a hexadecimal offset. @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target:libc.so.6:getpid:foo'
