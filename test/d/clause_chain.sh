#!/bin/bash
# Probes with more clauses than one BPF program holds run them over
# programs chained by tail calls, exactly as one program would: in
# program order (each clause checks the previous one ran just before it),
# predicates true and false, this-> variables, exit() in the middle,
# speculations, ERROR after a fault in a later program, BEGIN and END,
# and a tracepoint's arguments in every program of the chain.  The
# scripts are generated; their expected output is clause_chain.out.
# (5,000 clauses: clause_chain_5000.sh.)
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# n clauses in order; every 4th has a true predicate followed by a false one.
order() {
	local n=$1 i
	echo 'BEGIN { x = 0; ok = 0; skipped = 0; this->early = 42; }'
	for ((i = 1; i <= n; i++)); do
		if ((i % 4 == 0)); then
			echo "BEGIN /x % 2 == 1/ { ok += (x == $((i - 1))); x = $i; }"
			echo "BEGIN /x == $((i - 1))/ { skipped++; }"
		else
			echo "BEGIN { ok += (x == $((i - 1))); x = $i; }"
		fi
		((i % (n / 4) == 0)) &&
			echo "BEGIN { printf(\"clause %d: x=%d ok=%d this->early=%d\\n\", $i, x, ok, this->early); }"
	done
	echo 'BEGIN { printf("x=%d ok=%d skipped=%d\n", x, ok, skipped); exit(0); }'
}

for n in 300 1000; do
	echo "== $n clauses"
	order $n > "$tmp/order.d"
	"$d" -qs "$tmp/order.d"
	echo "rc=$?"
done

echo "== exit() in the middle; END with many clauses"
{
	echo 'BEGIN { x = 0; }'
	for ((i = 1; i <= 1000; i++)); do
		echo "BEGIN { x = $i; }"
		((i == 500)) && echo 'BEGIN { exit(0); }'
	done
	echo 'END { y = 0; }'
	for ((i = 1; i <= 400; i++)); do echo "END { y += (y == $((i - 1))); }"; done
	echo 'END { printf("BEGIN stopped after %d; END ran %d in order\n", x, y); }'
} > "$tmp/exit.d"
"$d" -qs "$tmp/exit.d"
echo "rc=$?"

echo "== speculations across programs"
{
	echo 'BEGIN { s = speculation(); n = 0; }'
	echo 'BEGIN { speculate(s); printf("speculated in the first program\n"); }'
	for ((i = 1; i <= 600; i++)); do echo "BEGIN { n++; }"; done
	echo 'BEGIN { printf("before the commit, n=%d\n", n); }'
	echo 'BEGIN { commit(s); }'
	echo 'BEGIN { t = speculation(); }'
	echo 'BEGIN { speculate(t); printf("discarded\n"); }'
	for ((i = 1; i <= 300; i++)); do echo "BEGIN { n++; }"; done
	echo 'BEGIN { discard(t); printf("n=%d\n", n); exit(0); }'
} > "$tmp/spec.d"
"$d" -qs "$tmp/spec.d"
echo "rc=$?"

echo "== ERROR after a fault in a later program"
{
	echo 'BEGIN { n = 0; }'
	for ((i = 1; i <= 700; i++)); do echo "BEGIN { n++; }"; done
	echo 'BEGIN { this->p = (int *)0; trace(*this->p); }'
	echo 'ERROR { printf("ERROR after %d clauses: fault %d\n", n, arg4); }'
	for ((i = 1; i <= 300; i++)); do echo "BEGIN { n++; }"; done
	echo 'BEGIN { printf("went on to %d\n", n); exit(0); }'
} > "$tmp/err.d"
"$d" -qs "$tmp/err.d" 2>"$tmp/err"
echo "rc=$?"
sed 's/at BPF pc [0-9]*/at BPF pc N/' "$tmp/err"

echo "== a tracepoint with 1000 clauses"
{
	echo 'syscall::exit_group:entry /pid == $target/ { n = 0; this->a = arg0; }'
	for ((i = 1; i <= 1000; i++)); do
		echo "syscall::exit_group:entry /pid == \$target/ { n += (n == $((i - 1))); }"
	done
	echo 'syscall::exit_group:entry /pid == $target/ {
	printf("%s:%s arg0=%d this->a=%d n=%d %s\n", probefunc, probename, arg0, this->a, n, execname); }'
} > "$tmp/tp.d"
"$d" -qs "$tmp/tp.d" -c false
echo "rc=$?"
