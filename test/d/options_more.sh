#!/bin/bash
# More of DTrace's options: bpflog, debug, core, -G with ldpath, lazyload
# and linktype=dof, the mode options, -X, and the messages of options
# DTrace refuses.
d=$1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
n=$("$d" -x bpflog -qn 'BEGIN { exit(0); }' 2>&1 | grep -c '^BPF: processed')
echo "bpflog: statistics lines $n"
n=$("$d" -x debug -qn 'BEGIN { exit(0); }' 2>&1 | grep -c '^libdtrace DEBUG [0-9]*: ')
[ "$n" -gt 0 ] && echo "debug: messages"
DTRACE_DEBUG=1 "$d" -e -n 'BEGIN' 2>&1 | grep -c '^libdtrace DEBUG [0-9]*: set context to :::BEGIN$'
"$d" -x core -qn 'BEGIN { exit(0); }' 2>&1 | cat; echo "core: status ${PIPESTATUS[0]}"
rm -f core core.*
printf 'provider lnk { probe go(int); };\n' > lnk.d
"$d" -G -x ldpath=/nonexistent/ld -s lnk.d 2>&1 | grep -v ': /nonexistent/ld:'
ls lnk.o 2>/dev/null
"$d" -G -x lazyload -s lnk.d && od -An -c -N4 lnk.o
"$d" -G -x linktype=dof -o lnk.dof -s lnk.d && od -An -c -N4 lnk.dof
"$d" -G -x linktype=elf -n 'BEGIN' && od -An -c -N4 d.out
"$d" -G -l 2>&1; echo "status $?"
"$d" -X z -n BEGIN 2>&1; echo "status $?"
"$d" -H -e -n BEGIN 2>&1; echo "status $?"
for o in iregs=4 iregs=9 cpu=-1 errtags=yes bufsize=4kb strsize=1 switchrate=5fortnights \
	 version=1.2.3.4 version=3.0 linkmode=dynamic linktype=foo evaltime=later stdc=k \
	 aggpercpu=1 nosuchoption; do
	"$d" -x $o -e -n BEGIN 2>&1
done
exit 0
