#!/bin/bash
# A fault abandons the clause, prints DTrace's error message, fires ERROR
# with its arguments (arg4 the fault, arg5 the address); tracing goes on.
"$1" -q -s error_probe.d 2>&1 | sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/'
