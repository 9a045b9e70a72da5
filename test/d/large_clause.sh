#!/bin/bash
# Clauses longer than a BPF jump reaches (32767 instructions): the
# predicate's exit, faults early and late, and the record all work across
# the islands the code generator places (cg_clause.c).
d=$1
body() {
	for i in $(seq 1 6000); do echo "	g = (g + $i) & 0xffffff;"; done
}
{
	echo 'BEGIN { g = 0; }'
	echo 'BEGIN /pid == 0/ {'; body; echo '	printf("predicate false: not here\n"); }'
	echo 'BEGIN {'; body; echo '	printf("g %d\n", g); }'
	echo 'BEGIN {'; echo '	printf("early fault: not here\n");'; echo '	trace(*(int *)8);'; body; echo '}'
	echo 'BEGIN {'; body; echo '	trace(*(int *)16);'; echo '}'
	echo 'ERROR { printf("ERROR at %d\n", arg5); }'
	echo 'BEGIN { exit(0); }'
} >"${TMPDIR:-/tmp}/large_clause.$$.d"
"$d" -qs "${TMPDIR:-/tmp}/large_clause.$$.d" 2>&1 | sed 's/at BPF pc [0-9]*/at BPF pc N/; s/dt_clause_[0-9]*/dt_clause_N/'
echo "exit status ${PIPESTATUS[0]}"
rm -f "${TMPDIR:-/tmp}/large_clause.$$.d"
