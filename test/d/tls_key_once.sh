#!/bin/bash
# A clause naming self-> variables more than once computes the thread key
# (get_current_task, then the start time read) once: before the predicate
# when the predicate always names one, else after it (a false predicate
# costs nothing more); every
# access, thread-local arrays included, uses the same key as before, and
# -x nooptimize computes it at each access.  The values are the same
# either way, on a taken and on a false predicate.
d=$1
w="$DT_WORKLOADS/getppid_loop 5"
s='syscall::getppid:entry /pid == $target/ { self->n++; self->a[self->n] = self->n * 10; }
 syscall::getppid:return /pid == $target && self->n > 2/ { @s = sum(self->a[self->n] + self->n);
	self->t = self->n; }
 syscall::getppid:return /pid == $target && self->n == 99/ { @never = count(); self->n = 0; }
 END { printa("sum %@d\n", @s); printa("never %@d\n", @never); }'
a=$("$d" -qs /dev/stdin -c "$w" <<<"$s" 2>&1)
b=$("$d" -x nooptimize -qs /dev/stdin -c "$w" <<<"$s" 2>&1)
printf '%s\n' "$a"
[ "$a" = "$b" ] && echo "same without optimisation" || { echo "DIFFERS without optimisation:"; printf '%s\n' "$b"; }
# get_current_task (helper 35) or, where the start time is loaded through
# its BTF pointer, get_current_task_btf (158) calls in the clauses: one per
# clause naming self-> twice or more (shown as "task").
task() { sed -E 's/call helper#(35|158)$/call task/'; }
p='syscall::read:entry { self->ts = 1; }
 syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
echo "key computed: $("$d" -e -S -n "$p" 2>&1 | task | grep -c 'call task') times," \
	"without optimisation: $("$d" -x nooptimize -e -S -n "$p" 2>&1 | task | grep -c 'call task')"
q='syscall::getppid:entry /pid == 12345678/ { self->a = 1; self->b = 2; }'
echo "a filtering predicate, then the key: $("$d" -e -S -n "$q" 2>&1 | task |
	grep -oE 'call (helper#[0-9]*|task)' | head -3 | tr '\n' ' ')"
