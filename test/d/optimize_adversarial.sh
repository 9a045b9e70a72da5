#!/bin/bash
# Programs that lean on what the optimisation passes must leave alone
# print the same with and without -x nooptimize, and what D says they
# print: nested ?: over many temporaries, this-> and self-> mixed in one
# clause, narrowing casts, string functions feeding arithmetic, clauses
# that fault (their later statements do not run, ERROR counts them),
# aggregation keys with ++ and a speculation committed by a later clause.
# (The faults' messages go to stderr, not compared: they name a BPF pc.)
d=$1
scripts=(
'BEGIN { a = 6; b = a * 7; c = b > 40 ? (a < 5 ? 1 : 2) : 3;
	this->t = a; self->s = this->t * 2; this->t = self->s + this->t;
	e = (int8_t)300 + (uint16_t)65535; s = strjoin("ab", "cde");
	n = strlen(s) * 100 + strlen(substr(s, 1, 2));
	printf("%d %d %d %d %d %d %s %d\n", a, b, c, this->t, self->s, e, s, n); exit(0); }'
'BEGIN { x = 1; }
 BEGIN { this->p = (int *)0; y = *this->p; printf("not reached\n"); }
 BEGIN { z = 10 / (x - 1); printf("not reached\n"); }
 ERROR { e++; }
 BEGIN { printf("%d %d %d\n", x, e, y + z); exit(0); }'
'BEGIN { k = 5; @c[k++] = count(); @c[k++] = count(); @c[k] = count(); @c[k] = count();
	printa("%d %@d\n", @c); printf("%d\n", k); exit(0); }'
'BEGIN { s = speculation(); }
 BEGIN { speculate(s); printf("spec %d\n", s > 0); }
 BEGIN { printf("before commit\n"); }
 BEGIN { commit(s); }
 BEGIN { exit(0); }'
)
for s in "${scripts[@]}"; do
	a=$("$d" -qs /dev/stdin <<<"$s" 2>/dev/null)
	b=$("$d" -x nooptimize -qs /dev/stdin <<<"$s" 2>/dev/null)
	printf '%s\n' "$a"
	[ "$a" = "$b" ] && echo "same without optimisation" || { echo "DIFFERS without optimisation:"; printf '%s\n' "$b"; }
done
