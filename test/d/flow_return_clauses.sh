#!/bin/bash
# flowindent (-F) on a return probe with several clauses: DTrace's
# dt_flowindent looks at the record after a return's and unindents on the
# probe's last clause, the ones before it printing "| func:return" at the
# inner indent; so the Guide's specopen.d (a speculated trail whose last
# return clause traces errno) ends each trail on "<= func" and the value.
# The last record read (main's return) unindents too.
d=$1
w="$DT_WORKLOADS/pid_work 2"
_DTRACE_TESTING=1 "$d" -F -c "$w" -n '
pid$target:a.out:main:entry, pid$target:a.out:main:return {}
pid$target:a.out:twice:entry { trace(arg0); }
pid$target:a.out:twice:return { trace(arg1); }
pid$target:a.out:twice:return { trace(arg1 + 100); }
pid$target:a.out:twice:return { trace(arg1 + 200); }
pid$target:a.out:work:entry, pid$target:a.out:work:return {}' 2>/dev/null
echo "-- specopen.d's pattern"
_DTRACE_TESTING=1 "$d" -F -c "$w" -n '
syscall::getpid:entry /pid == $target/ {
	self->spec = speculation();
	speculate(self->spec);
	trace("entry");
}
syscall::getpid:entry, syscall::getpid:return /self->spec/ { speculate(self->spec); }
syscall::getpid:return /self->spec/ { speculate(self->spec); trace(errno); }
syscall::getpid:return /self->spec/ { commit(self->spec); self->spec = 0; }' 2>/dev/null
exit 0
