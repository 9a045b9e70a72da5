#!/bin/bash
# A committed or discarded speculation is free for the next speculation()
# as soon as DTrace frees it: at once when all its data is on the CPU that
# commits or discards it (or, for commit(), when it has none).  With
# nspec=1, the Guide's entry/return pattern on 300 system calls made one
# after the other on one CPU commits every third call's pair and loses
# none, with no failed speculation; speculation() fails only while every
# buffer is in use (the third of three at once with nspec=2: 300 times).
n=300
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
out=$("$1" -q -x nspec=2 -c "$DT_WORKLOADS/spec_work $n" -n '
syscall::getppid:entry /pid == $target/ {
	self->spec = speculation();
	self->n = n++;
}
syscall::getppid:entry /self->spec/ { speculate(self->spec); printf("entry %d\n", self->n); }
syscall::getppid:return /self->spec/ { speculate(self->spec); printf("return %d\n", self->n); }
syscall::getppid:return /self->spec && self->n % 3 == 0/ { commit(self->spec); }
syscall::getppid:return /self->spec && self->n % 3 != 0/ { discard(self->spec); }
syscall::getppid:return { self->spec = 0; }
syscall::getpgid:entry /pid == $target/ {
	a = speculation();
	b = speculation();
	c = speculation();
	@[a != 0, b != 0, c != 0] = count();
}
syscall::getpgid:entry /pid == $target/ { commit(a); commit(b); }
END { printa("speculation() gave ids: %d %d %d %@d times\n", @); }
' 2>"$t/err")
echo "$out" | awk -v n=$n '
$1 == "entry" || $1 == "return" {
	want = ($1 == "entry") ? sprintf("entry %d", next_n) : sprintf("return %d", next_n)
	if ($0 != want) bad++
	if ($1 == "return") { pairs++; next_n += 3 }
	next
}
{ print }
END { printf("%d committed pairs (of %d calls), %d out of order\n", pairs, n, bad) }'
# Reported at statusrate: add up the reports of each kind.
awk '/failed speculations? / { n = $2; sub(/^dtrace: [0-9]+ failed speculations? /, ""); sum[$0] += n; next }
{ print }
END { for (k in sum) printf("failed speculations %s: %d\n", k, sum[k]) }' "$t/err" | sort
