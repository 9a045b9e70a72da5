#!/bin/bash
# print(): members by type, zero members left out, printsize truncation (printsize is rounded up to 8 bytes, as in DTrace).
# The object lives in alloca() memory, whose address varies: it is masked.
"$1" -s "$(dirname "$0")/print_struct.dinc" | sed 's/^0x[0-9a-f]* = \*$/ADDR = */'
