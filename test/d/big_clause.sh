#!/bin/bash
# One clause of 150,000 statements, far more than the verifier takes in
# one program: cut into parts between its statements, spread over
# programs chained by tail calls, it runs as one clause: every statement
# once and in order (x's value depends on the order), with this->, self->
# and an aggregation set in its first part read in its last.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo 'int x;'
	echo 'BEGIN { this->first = 7; self->t = 9; @a = count(); x = 1;'
	awk 'BEGIN { for (i = 0; i < 150000; i++) printf " x = x * 3 + %d;\n", i % 1000 }'
	echo ' printf("x=%d this->first=%d self->t=%d\n", x, this->first, self->t);'
	echo ' printa("count=%@d\n", @a); exit(0); }'
} > "$tmp/big.d"
"$d" -qs "$tmp/big.d"
echo "rc=$?"
