#!/bin/bash
# Stacks at function entry: the function has not pushed its frame, so
# the caller's return address is the word at the stack pointer (DTrace's
# dtrace_getupcstack at entry probes); the frame-pointer chain goes on
# from there.  ustack(), ustackdepth, ucaller, jstack(), -x ustackframes
# and stack aggregation keys, at entry and offset-0 probes of functions
# whose first instruction is a mov (a leaf), push %rbp and endbr64 (the
# kernel adds *sp itself for the last two, on some kernels only), and at
# libc's malloc.  An offset probe past the first instruction of a leaf
# keeps the frame-pointer walk (no direct caller), as DTrace does.
"$1" -q -x ustackframes=3 -n '
pid$target:a.out:eleaf:entry, pid$target:a.out:epush:entry, pid$target:a.out:eendbr:entry {
	printf("%s:%s depth %d caller %A", probefunc, probename, ustackdepth, ucaller);
	ustack();
}
pid$target:a.out:eleaf:0 {
	@[jstack(2)] = sum(++n);	/* in call order: keys compare bytewise */
	@c[ucaller] = count();
}
pid$target:a.out:eleaf:2 {
	printf("%s:%s", probefunc, probename);
	ustack(2);
}
pid$target:libc.so.6:malloc:entry /arg0 == 100/ {
	printf("malloc caller %A", ucaller);
	ustack();
	ufunc(ucaller);
	printf("\n");
}
END {
	printa(@);
	printa("%A %@d\n", @c);
}' -c "$DT_WORKLOADS/stack_work entry" | sed 's/main+0x[0-9a-f]*$/main+OFF/'
