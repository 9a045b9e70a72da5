#!/bin/sh
# The '-' (absolute address) function with a module other than a.out. @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target:libc.so.6:-:1000'
