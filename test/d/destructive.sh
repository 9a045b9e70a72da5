#!/bin/bash
# Destructive actions need -w (or the destructive option), as in DTrace:
# without it, enabling fails before anything runs; with it, dtrace says
# so (unless quiet).
d=$1
"$d" -n 'BEGIN { system("echo ran"); exit(0); }' 2>&1; echo "no -w: rc $?"
"$d" -q -n 'BEGIN { system("echo ran"); exit(0); }' 2>&1; echo "no -w, quiet: rc $?"
"$d" -w -n 'BEGIN { system("echo ran"); exit(0); }' 2>&1 >/dev/null; echo "-w: rc $?"
"$d" -q -w -n 'BEGIN { system("echo ran"); exit(0); }' 2>&1; echo "-w, quiet: rc $?"
"$d" -q -x destructive -n 'BEGIN { system("echo ran"); exit(0); }' 2>&1; echo "-x destructive: rc $?"
"$d" -q -n '#pragma D option destructive
BEGIN { system("echo ran"); exit(0); }' 2>&1; echo "pragma: rc $?"
# Not destructive: no notice, no -w needed.
"$d" -q -n 'BEGIN { printf("fine\n"); exit(0); }' 2>&1; echo "printf: rc $?"
