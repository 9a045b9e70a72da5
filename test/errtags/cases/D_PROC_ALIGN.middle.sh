#!/bin/sh
# An offset inside an instruction (getpid's first one is longer than a byte). @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target:libc.so.6:getpid:1'
