#!/bin/bash
# 5,000 clauses on one probe, over many programs chained by tail calls:
# each runs in program order (it checks that the one before it ran just
# before it), predicates true and false, this-> from the first program.
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

order 5000 > "$tmp/order.d"
"$d" -qs "$tmp/order.d"
echo "rc=$?"
