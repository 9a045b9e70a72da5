#!/bin/bash
# DTrace's compile-time rules for speculations, each with its tag and
# line; and what the rules allow (within each basic block of if/else).
d=$1
f=/tmp/dt_spec_err_$$.d
try() {
	printf 'BEGIN\n{\n\ta = speculation();\n}\n\nBEGIN\n{\n%b\n}\n' "$1" > $f
	"$d" -x errtags -w -e -s $f 2>&1 | sed "s|$f|X|"; echo "rc=${PIPESTATUS[0]}"
}
try '\tspeculate(a);\n\tspeculate(a);'
try '\tprintf("x");\n\tspeculate(a);'
try '\t@c = count();\n\tspeculate(a);'
try '\tcommit(a);\n\tspeculate(a);'
try '\ttrace(1);\n\tcommit(a);'
try '\t@c = count();\n\tcommit(a);'
try '\tcommit(a);\n\ttrace(1);'
try '\tcommit(a);\n\texit(0);'
try '\tcommit(a);\n\t@c = count();'
try '\tspeculate(a);\n\t@c = sum(1);'
try '\tspeculate(a);\n\texit(0);'
try '\tif (a) {\n\t\tspeculate(a);\n\t\traise(9);\n\t}'
try '\tspeculate(a);\n\tsystem("true");'
try '\tspeculate(a);\n\tcopyoutstr("x", 0, 2);'
echo "allowed:"
try '\tdiscard(a);\n\tspeculate(a);\n\tprintf("x");\n\tdiscard(a);'
try '\ttrace(1);\n\tdiscard(a);\n\ttrace(2);'
try '\tcommit(a);\n\tcommit(a);\n\tdiscard(a);'
try '\tsystem("true");\n\tspeculate(a);\n\tprintf("x");'
try '\tcommit(a);\n\tsystem("true");'
try '\tspeculate(a);\n\tx = 1;\n\tself->y = a;'
# The blocks before, in and after a branch are clauses of their own to
# DTrace (dt_sugar.c): the rules hold within each.
try '\tspeculate(a);\n\tif (a) {\n\t\traise(9);\n\t}'
try '\tprintf("x");\n\tif (a) {\n\t\tspeculate(a);\n\t\tprintf("y");\n\t}\n\tcommit(a);'
"$d" -e -n 'BEGIN { speculate(); }' 2>&1; echo "rc=$?"
"$d" -e -n 'BEGIN { x = commit(1); }' 2>&1; echo "rc=$?"
"$d" -e -n 'BEGIN { speculation(1); }' 2>&1; echo "rc=$?"
"$d" -x nspec=5000 -e -n 'BEGIN { speculation(); }' 2>&1; echo "rc=$?"
printf '#pragma D option quiet nspec=2\nBEGIN { exit(0); }\n' > $f
"$d" -x errtags -e -s $f 2>&1 | sed "s|$f|X|"; echo "rc=${PIPESTATUS[0]}"
printf '#pragma D option nspec=-1\nBEGIN { exit(0); }\n' > $f
"$d" -x errtags -e -s $f 2>&1 | sed "s|$f|X|"; echo "rc=${PIPESTATUS[0]}"
rm -f $f
