#!/bin/sh
# The benchmark's shapes of code (test/bench) on the lab's stock kernel
# (Linux 6.1), whose verifier is stricter and whose bpf_get_current_comm()
# leaves what follows the NUL unzeroed: an aggregation keyed by execname
# (its key zeroed: printed as a string), a thread-local with a predicate
# on it (the start time of the thread key through its BTF pointer), a
# quantize, an execname predicate inlined as word compares.
d=$1
"$d" -q -c "dd if=/proc/version of=/dev/null" -n '
syscall::read:entry /pid == $target/ { self->ts = timestamp; }
syscall::read:return /self->ts/ { @l = count(); @q = quantize(arg0 > 0); self->ts = 0; }
syscall::read:return /pid == $target/ { @c[execname] = count(); }
syscall::read:return /execname == "dd"/ { @p = count(); }
syscall::read:return /pid == $target/ { @eq = sum(execname == "dd"); @ne = sum(execname != "dd");
	@long = sum(execname == "dd, a name longer than a comm"); }
END { printa("key %s: %@d\n", @c); printa("predicate: %@d\n", @p); printa("latency: %@d\n", @l);
	printa(@q); printa("== %@d, != %@d, ", @eq, @ne); printa("longer %@d\n", @long); }' 2>&1 |
	grep -v records
