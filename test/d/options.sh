#!/bin/bash
# Command-line options: -e, -o, -C with -D/-U, -x and #pragma options, -V, -S.
d=$1
t=/tmp/dt_opt_$$
"$d" -e -n 'BEGIN { x = 1; }' 2>&1; echo "e rc=$?"
"$d" -q -o $t.out -n 'BEGIN { printf("to file\n"); exit(0); }'; cat $t.out
printf '#define GREETING "hi"\n#ifdef LOUD\nBEGIN { printf("%%s!\\n", GREETING); exit(0); }\n#else\nBEGIN { printf("%%s\\n", GREETING); exit(0); }\n#endif\n' > $t.d
"$d" -q -C -s $t.d
"$d" -q -C -D LOUD -s $t.d
"$d" -q -C -D LOUD -U LOUD -s $t.d
printf '#pragma D option quiet\n#pragma D option strsize=4\nBEGIN { s = "abcdefgh"; printf("%%s\\n", s); exit(0); }\n' > $t.d
"$d" -s $t.d
"$d" -x strsize=3 -qn 'BEGIN { printf("%s\n", "abcdefgh"); exit(0); }'
"$d" -x nosuchopt -n 'BEGIN { exit(0); }' 2>&1; echo "x rc=$?"
"$d" -x bufsize=1q -n 'BEGIN { exit(0); }' 2>&1; echo "x rc=$?"
"$d" -V | grep -c '^dtrace: '
"$d" -q -S -n 'BEGIN { exit(0); }' 2>&1 | grep -c "Disassembly of clause :::BEGIN, <dt_clause_0>"
rm -f $t.out $t.d
# version: the D versions DTrace defines up to 2.0 ("2" is 2.0) are accepted, later refused.
for v in 1.6.3 2.0 2.1 2; do
	"$d" -x version=$v -qn 'BEGIN { exit(0); }' 2>&1; echo "rc=$?"
done
