#!/bin/sh
# lockstat on a stock distribution kernel (Debian's 6.1: fexit on the
# kernel's lock functions, the lock tracepoints), run inside the kernel
# lab by run-lab-tests: `lockstat.sh DTRACE`, stdout compared with
# lockstat.out.  The workloads are in $DT_WORKLOADS; date and sh are
# busybox's.  Nested probe drops (probes that fired in a clause, such as
# the locks of dtrace's own maps) vary from run to run and are left out.
d=$1
W=$DT_WORKLOADS
t=/tmp/lockstat
mkdir -p $t
drops() { grep -v 'nested probe drop' | sed -E 's/pid [0-9]+/pid N/'; }
# Each section's title, on stdout and on the console: a hung guest's last
# console lines say which section it hung in.
section() { echo "$1"; echo "lockstat.sh: $1" >/dev/console 2>/dev/null; }

section "== whatlock.d, the Dynamic Tracing Guide's, on date: adaptive and spin locks taken"
cat > $t/whatlock.d <<'D'
lockstat:::adaptive-acquire
/execname == "date"/
{
	@locks["adaptive"] = count();
}

lockstat:::spin-acquire
/execname == "date"/
{
	@locks["spin"] = count();
}
D
"$d" -s $t/whatlock.d -c date 2>$t/err | awk 'NF == 2 { print $1, ($2 > 0) }' | sort
drops < $t/err

section "== a mutex the workload blocks on: adaptive-block, then its acquire, then its release"
"$d" -q -c "$W/lock_work pipe" -n '
lockstat:::adaptive-block /pid == $target && execname == "pipe_waiter"/ {
	self->m = arg0;
	printf("%s owned by this thread %d, after some time %d\n", probename,
	    mutex_owner(args[0]) == curthread, args[1] > 0);
}
lockstat:::adaptive-acquire /self->m == arg0/ {
	printf("%s owned by this thread %d\n", probename, mutex_owner(args[0]) == curthread);
}
lockstat:::adaptive-release /self->m == arg0/ {
	printf("%s not owned %d\n", probename, mutex_owner(args[0]) == NULL);
	self->m = 0;
}' 2>&1 | drops

section "== tasklist_lock, a reader/writer spin lock: as many writer releases as acquisitions"
tl=0x$(grep ' tasklist_lock$' /proc/kallsyms | cut -d' ' -f1)
"$d" -q -c "$W/lock_work pipe" -n '
lockstat:::rw-acquire /pid == $target && arg0 == '$tl' && args[1] == RW_WRITER/ { a++; }
lockstat:::rw-release /pid == $target && arg0 == '$tl' && args[1] == RW_WRITER/ { r++; }
END { printf("acquired at least 4 times (2 threads created, 3 exit) %d, released as often %d\n",
    a >= 4, a == r); }' 2>&1 | drops

section "== spin locks the workload takes and releases (args[0] is arg0, typed)"
"$d" -q -c "$W/lock_work pipe" -n '
lockstat:::spin-acquire /pid == $target/ { @["acquired", args[0] == (spinlock_t *)arg0] = count(); }
lockstat:::spin-release /pid == $target/ { @["released", args[0] == (spinlock_t *)arg0] = count(); }
END { printa("%s %d %@d\n", @); }' 2>&1 | drops | sed -E 's/ [1-9][0-9]*$/ N/'

section "== contention probes on this kernel"
"$d" -q -c "$W/lock_work" -n '
lockstat:::adaptive-block /pid == $target && execname == "pipe_waiter"/ {
	@[probename] = sum(args[1] > 0);
}
lockstat:::rw-block /pid == $target && execname == "file_waiter"/ {
	@[probename] = sum(args[2] == RW_WRITER && args[3] != 0 && args[4] == 0);
}
lockstat:::adaptive-acquire-error /pid == $target && execname == "tty_waiter"/ {
	@[probename] = sum(args[1] == -EINTR);
}
END { printa("%s %@d\n", @); }' 2>&1 | drops
section "== the ring buffer's lock a clause's printf takes is not traced: nested probe drops"
"$d" -q -c date -n 'lockstat:::spin-acquire /pid == $target/ { printf("x\n"); }' 2>$t/err |
	grep -c '^x$' | awk '{ print "records", ($1 > 0) }'
grep -q '^dtrace: [0-9]* nested probe drops* on CPU [0-9]*$' $t/err && echo "nested probe drops reported"
"$d" -q -x oformat=json -c date -n 'lockstat:::spin-acquire /pid == $target/ { printf("x\n"); }' |
	grep -q '"event":"drop","kind":"nested","cpu":' && echo "and in JSON"
rm -rf $t
