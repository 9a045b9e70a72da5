#!/bin/bash
# Speculations under load: two processes on two CPUs each speculate on
# every getppid() and commit one in four, as fast as they can, with few
# speculations to go round (so many fail while drained ones await the
# consumer).  Only committed data is printed, each record once, in each
# thread's order; speculations handed out + failed ones = calls.
command -v taskset >/dev/null || { echo "taskset is not installed" >&2; exit 77; }
n=100000
cpu1=$(( 1 % $(nproc) ))
w="$DT_WORKLOADS/getppid_loop"
t=/tmp/dt_spec_sys_$$
printf '#!/bin/sh\ntaskset -c 0 %s %d & taskset -c %d %s %d & wait\n' "$w" $n $cpu1 "$w" $n > $t.sh
chmod +x $t.sh
"$1" -q -x nspec=8 -c $t.sh -n '
syscall::getppid:entry /progenyof($target) && execname == "getppid_loop"/ { self->s = speculation(); self->n++; }
syscall::getppid:entry /self->s/ { @got = count(); }
syscall::getppid:entry /self->s/ { speculate(self->s); printf("%d %d\n", pid, self->n); }
syscall::getppid:return /self->s && self->n % 4 == 0/ { @committed = count(); }
syscall::getppid:return /self->s && self->n % 4 == 0/ { commit(self->s); self->s = 0; }
syscall::getppid:return /self->s/ { discard(self->s); self->s = 0; }
END { printa("got %@d\n", @got); printa("committed %@d\n", @committed); }' >$t.out 2>$t.err
got=$(sed -n 's/^got //p' $t.out)
committed=$(sed -n 's/^committed //p' $t.out)
failed=$(sed -n 's/^dtrace: \([0-9]*\) failed speculations\{0,1\} .*/\1/p' $t.err | awk '{ s += $1 } END { print s + 0 }')
grep -E '^[0-9]+ [0-9]+$' $t.out > $t.recs
echo "only committed data: $(awk '$2 % 4 != 0 { bad++ } END { print bad ? "no" : "yes" }' $t.recs)"
echo "each once, in order: $(awk '$2 <= last[$1] { bad++ } { last[$1] = $2 } END { print bad ? "no" : "yes" }' $t.recs)"
echo "all committed printed: $([ "$(wc -l < $t.recs)" = "$committed" ] && echo yes || echo "no ($(wc -l < $t.recs) of $committed)")"
echo "some committed: $([ "${committed:-0}" -gt 0 ] && echo yes || echo no)"
echo "calls accounted: $([ $((got + failed)) = $((2 * n)) ] && echo yes || echo "no ($got + $failed)")"
echo "other messages: $(grep -v 'failed speculation' $t.err | wc -l)"
rm -f $t.out $t.err $t.recs $t.sh
