#!/bin/bash
# A new thread starts with every thread-local variable zero, also when it
# gets the tid of a thread that has ended and left values behind (DTrace
# keys thread-locals by a thread identity that is never reused).  The
# workload's first child sets self-> variables (a scalar, a string, a
# struct, an array element) at getppid() and exits without clearing
# them; a second child gets its pid (the kernel's next pid is set) and
# reads them at its own getppid().
out=$("$1" -q -c "$DT_WORKLOADS/tid_reuse" -n '
struct pt { int x; int y; };
self struct pt pt;
self int arr[int];
self int n;
self string s;
syscall::getppid:entry /progenyof($target) && pid != $target/ {
	printf("n %s, s %s, pt.x %s, arr[7] %s\n", self->n == 0 ? "zero" : "left over",
	    self->s == NULL ? "zero" : "left over", self->pt.x == 0 ? "zero" : "left over",
	    self->arr[7] == 0 ? "zero" : "left over");
	self->n = tid;
	self->s = execname;
	self->pt.x = tid;
	self->arr[7] = tid;
}')
rc=$?
echo "rc $rc"
if ! grep -qx reused <<<"$out"; then
	echo "tls_tid_reuse: the workload's second child never got its predecessor's pid" >&2
	exit 77
fi
# Every child's first getppid() sees zeros (the reused tid's too).
grep -v '^reused$' <<<"$out" | sort -u
