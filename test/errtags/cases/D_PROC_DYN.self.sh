#!/bin/sh
# The pid of dtrace itself ($pid). @root
exec "$1" -x errtags -e -n 'pid$pid:::entry'
