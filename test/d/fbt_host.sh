#!/bin/bash
# fbt on this machine's kernel, which has neither fentry (loading a
# BPF_TRACE_FENTRY program is refused) nor kprobes nor kprobe_multi:
# enabling names what is missing; listing still works, from BTF and
# kallsyms; BEGIN alone never reads either.  (fbt itself is tested in
# the kernel lab: test/kernel-lab.)  strace shows which files dtrace opens.
d=$1
command -v strace >/dev/null || { echo "strace is not installed: cannot see the files dtrace opens" >&2; exit 77; }
# A sanitized dtrace: LeakSanitizer cannot run under ptrace (it fails the run).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# The error, exactly (the fentry reason is the kernel's errno).
"$d" -n 'fbt::vfs_read:entry { n++; }' 2>&1
echo "rc $?"
# Listing: a function in both probe names, ids masked.
"$d" -l -n 'fbt::vfs_read:' | sed -E 's/^ *[0-9]+ / XX /'
"$d" -l -n 'fbt:vmlinux:vfs_read*:entry' | sed -E 's/^ *[0-9]+ / XX /'
n=$("$d" -l -P fbt | wc -l)
[ "$n" -gt 10000 ] && echo "fbt lists more than 10000 probes" || echo "fbt lists $n probes"
# Each listed function has both probes.
"$d" -l -P fbt | awk 'NR > 1 { n[$4]++ } END { for (f in n) if (n[f] != 2) bad++; print "functions without both probes:", bad + 0 }'
# args[] from BTF: typed on entry; on return args[0] and, unless void, args[1].
"$d" -e -n 'fbt::vfs_read:entry { trace(args[0]->f_flags); trace(args[3]); }' 2>&1
echo "rc $?"
"$d" -e -n 'fbt::vfs_read:entry { trace(args[4]); }' 2>&1
"$d" -e -n 'fbt:vmlinux:exit_creds:return { trace(args[0]); trace(args[1]); }' 2>&1
"$d" -e -n 'fbt::vfs_read:return { trace(args[1] + 1); }' 2>&1
# A mechanism that does not exist.
"$d" -x fbtmech=uprobe -n 'BEGIN { exit(0); }' 2>&1
echo "rc $?"
# BEGIN alone does not look at kernel functions (strace failing, or
# seeing no openat() at all, is not "none opened").
if opens=$(strace -f -e trace=openat "$d" -n 'BEGIN { exit(0); }' 2>&1 >/dev/null) &&
    grep -q 'openat(' <<< "$opens"; then
	echo "BEGIN opens kallsyms or BTF: $(grep -cE 'kallsyms|/sys/kernel/btf' <<< "$opens")"
else
	echo "strace failed: $opens"
fi
exit 0
