#!/bin/bash
# The D library's kernel part (psinfo_t, curpsinfo ...) is compiled only
# for programs that name it: the base part (errno names, CLD_*) does not
# read the kernel's BTF.  strace shows which files dtrace opens.
command -v strace >/dev/null || { echo "strace is not installed: cannot see the files dtrace opens" >&2; exit 77; }
# A sanitized dtrace: LeakSanitizer cannot run under ptrace (it fails the run).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
btf() {
	local opens
	# strace failing must not read as "no BTF opened": it fails the test.
	opens=$(strace -f -e trace=openat "$1" -qn "$2" 2>&1 >/dev/null) || { echo "strace failed"; return; }
	grep -q 'openat(' <<< "$opens" || { echo "strace saw no openat()"; return; }
	grep -q /sys/kernel/btf/vmlinux <<< "$opens" && echo yes || echo no
}
echo "BEGIN: $(btf "$1" 'BEGIN { exit(0); }')"
echo "base library: $(btf "$1" 'BEGIN { trace(EINTR + CLD_EXITED); exit(0); }')"
echo "kernel part: $(btf "$1" 'BEGIN { trace(curpsinfo->pr_pid); exit(0); }')"
"$1" -qn 'BEGIN { printf("%d %d\n", EINTR, CLD_KILLED); exit(0); }'
