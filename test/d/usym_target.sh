#!/bin/bash
# The -c process's user symbols resolve whatever probes are enabled (no
# pid probe here) and however soon it exits: its mappings are read at its
# entry point and the files its code comes from are held open, so an
# executable that removed itself still resolves when END prints.
# ufunc(), usym(), umod(), uaddr(), ustack() and printf's %A; names
# without symbol versions (clock_nanosleep@@GLIBC_2.17 in libc6-dbg).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$DT_WORKLOADS/stack_work" "$tmp/stack_work"
"$1" -qn '
syscall::getppid:entry /pid == $target/ {
	@s[ustack(4)] = count();
	@f[ufunc(uregs[R_PC]), umod(uregs[R_PC])] = count();
	@a[uaddr(ucaller)] = count();
	printf("%A\n", ucaller);
	usym(ucaller);
	printf("\n");
}' -c "$tmp/stack_work unlink" | sed 's/main+0x[0-9a-f]*$/main+OFF/'
test -e "$tmp/stack_work" && echo "the workload did not remove itself"
"$1" -qn '
syscall::clock_nanosleep:entry /pid == $target/ {
	@[ufunc(uregs[R_PC])] = count();
}' -c "$DT_WORKLOADS/stack_work 1 1"
