#!/bin/bash
# d_path(): a process's working directory (a struct path of the kernel),
# a path 60 directories deep, the same path cut at strsize as any string
# is (its beginning kept), and the fault of a bad struct path address.
[ -n "${DT_WORKLOADS:-}" ] || { echo "d_path: DT_WORKLOADS is not set" >&2; exit 77; }
dir=$(mktemp -d /var/tmp/d_path.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
deep=$dir
for i in $(seq 1 60); do deep=$deep/d$i; done
mkdir -p "$deep"
echo x > "$deep/f"

# The workload reads 3 bytes of /dev/zero in its working directory.
out=$(cd "$deep" && "$1" -q -c "$DT_WORKLOADS/open_missing" -n '
syscall::read:entry /pid == $target && arg2 == 3/ { printf("%s\n", d_path(&curthread->fs->pwd)); }')
[ "$out" = "$deep" ] && echo "the working directory, ${#deep} characters: right" ||
	echo "working directory: got '$out', expected '$deep'"

out=$(cd "$deep" && "$1" -q -x strsize=40 -c "$DT_WORKLOADS/open_missing" -n '
syscall::read:entry /pid == $target && arg2 == 3/ { printf("%s\n", d_path(&curthread->fs->pwd)); }')
[ "$out" = "${deep:0:40}" ] && echo "with strsize=40: its first 40 characters" ||
	echo "strsize=40: got '$out', expected '${deep:0:40}'"

"$1" -q -n 'BEGIN { trace(d_path((struct path *)0x18)); exit(0); }
ERROR { printf("fault %d at %x\n", arg4, arg5); exit(0); }' 2>/dev/null
