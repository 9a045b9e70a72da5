#!/bin/sh
# User stacks under pending pid return probes on a kernel before 6.11,
# whose own stack walk keeps the uretprobe trampolines: dtrace maps them
# back in bpf_get_stack()'s stacks (a system call, an offset probe, a
# return probe, a profile probe) as in its own walk at entry probes (a
# chain, a recursion, a tail call).  The workload is test/d's uret_work;
# libc frames are left out (the lab's libc has no local symbols).
d=$1
W=$DT_WORKLOADS
"$d" -q -n '
pid$target:a.out:ua:return, pid$target:a.out:ub:return, pid$target:a.out:uc:return,
pid$target:a.out:urec:return, pid$target:a.out:utail:return, pid$target:a.out:ud:return,
pid$target:a.out:utwrap:return
{
}
pid$target:a.out:uleaf:entry /arg0 != 3/ {
	printf("uleaf(%d) depth %d caller %A", arg0, ustackdepth, ucaller);
	ustack();
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
}' -c "$W/uret_work" | sed -e 's/main+0x[0-9a-f]*$/main+OFF/' -e '/libc\.so\.6`/d'
"$d" -q -n '
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
}' -c "$W/uret_work spin" | sed -e 's/main+0x[0-9a-f]*$/main+OFF/' -e '/libc\.so\.6`/d'
