#!/bin/sh
# A glob as the address of the '-' (absolute address) function. @root
exec "$1" -x errtags -e -c 'sleep 5' -n 'pid$target::-:4*'
