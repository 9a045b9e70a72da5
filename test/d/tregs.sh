#!/bin/bash
# Tuples have at most tregs keys (DTrace's tuple registers, default 8).
d=$1
"$d" -qn 'BEGIN { a[1, 2, 3, 4, 5, 6, 7, 8] = 8; printf("8 keys: %d\n", a[1, 2, 3, 4, 5, 6, 7, 8]); exit(0); }'
"$d" -qn 'BEGIN { a[0, 1, 2, 3, 4, 5, 6, 7, 8] = 0; }' 2>&1
"$d" -x tregs=9 -qn 'BEGIN { a[0, 1, 2, 3, 4, 5, 6, 7, 8] = 9;
    printf("9 keys with tregs=9: %d\n", a[0, 1, 2, 3, 4, 5, 6, 7, 8]); exit(0); }'
"$d" -x tregs=5 -qn 'BEGIN { @[1, 2, 3, 4, 5, 6] = count(); exit(0) }' 2>&1
exit 0
