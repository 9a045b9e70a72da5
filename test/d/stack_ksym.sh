#!/bin/bash
# sym(), func() and mod() of kernel addresses (do_syscall_64 + 0x10 from
# /proc/kallsyms), printf's %a, sym() keys merged by function, and
# addresses that are no symbol's.
a=$(awk '$3 == "do_syscall_64" { print $1; exit }' /proc/kallsyms)
"$1" -qn '
BEGIN {
	sym($1 + 0x10); printf("|\n");
	func($1 + 0x10); printf("|\n");
	mod($1 + 0x10); printf("|\n");
	sym(0x10); printf("|\n");
	mod(0x10); printf("|\n");
	printf("%a %a %a\n", $1, $1 + 0x10, 0x10);
	@s[sym($1)] = count();
	@s[sym($1 + 1)] = count();
	@s[func($1 + 2)] = count();
	@m[mod($1)] = count();
	@m[mod($1 + 0x1000)] = count();
	exit(0);
}' "0x$a"
