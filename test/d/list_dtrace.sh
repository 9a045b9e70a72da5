#!/bin/bash
# -l with -P lists probes in DTrace's format; -n with a glob.
"$1" -l -P dtrace
"$1" -l -n 'syscall::getppid:*' | sed -E 's/^ *[0-9]+ / XX /'
