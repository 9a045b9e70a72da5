#!/bin/bash
# User stacks of a thread with pending pid return probes: each has
# replaced the return address of its function on the stack with the
# kernel's uretprobe trampoline, which must never show.  Every frame is the
# real return address, as the kernel maps it back in its own stack walks:
# at entry probes (the walk dtrace does itself: ustack(), ustackdepth,
# ucaller, stack keys), at an offset probe, a return probe (whose first
# frame is the return address, in the caller), a system call and a
# profile probe; through a chain of probed functions, a recursion (one
# trampoline per level), a tail call (two instances for one return
# address) and a longjmp out of a probed function (its instance is left
# behind, below the frames that are still there).
dt=$1
w=$DT_WORKLOADS/uret_work
off() { sed -e 's/main+0x[0-9a-f]*$/main+OFF/' -e 's/uwrap+0x[0-9a-f]*$/uwrap+OFF/' \
	-e 's/__libc_start_call_main+0x[0-9a-f]*$/__libc_start_call_main+OFF/'; }

"$dt" -q -n '
pid$target:a.out:ua:return, pid$target:a.out:ub:return, pid$target:a.out:uc:return,
pid$target:a.out:urec:return, pid$target:a.out:utail:return, pid$target:a.out:ud:return,
pid$target:a.out:utwrap:return, pid$target:a.out:ujump:return, pid$target:a.out:uwrap:return
{
}
pid$target:a.out:uleaf:entry {
	printf("uleaf(%d) depth %d caller %A", arg0, ustackdepth, ucaller);
	ustack();
}
pid$target:a.out:urec:entry {
	printf("urec(%d) depth %d caller %A", arg0, ustackdepth, ucaller);
	ustack();
	@[ustack(3)] = count();
}
syscall::getppid:entry /pid == $target/ {
	printf("getppid depth %d caller %A", ustackdepth, ucaller);
	ustack();
}
pid$target:a.out:uc:b {
	printf("uc:b depth %d caller %A", ustackdepth, ucaller);
	ustack();
}
pid$target:a.out:ub:return {
	printf("ub:return depth %d caller %A", ustackdepth, ucaller);
	ustack();
}
END {
	printa(@);
}' -c "$w" | off

# A profile probe in a spinning function under two pending return probes,
# in user mode at the loop's instruction (uspin+0x4: the function's frame
# is there).
"$dt" -q -n '
pid$target:a.out:uspin:return, pid$target:a.out:uspinwrap:return {
}
pid$target:a.out:uspin:entry {
	self->loop = uregs[R_PC] + 4;
}
profile-997 /self->loop && arg1 == self->loop && !done/ {
	done = 1;
	printf("profile depth %d caller %A", ustackdepth, ucaller);
	ustack();
	exit(0);
}' -c "$w spin" | off
