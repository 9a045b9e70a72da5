#!/bin/sh
# A pid no process has (beyond the largest pid). @root
exec "$1" -x errtags -e -n 'pid2147483647:::entry'
