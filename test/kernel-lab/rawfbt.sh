#!/bin/sh
# rawfbt (DTrace 2.0's provider): kernel functions by their kallsyms names,
# BTF or not, through kprobes.  do_sysinfo() is a copy the compiler made
# (do_sysinfo.isra.0 on Debian's 6.1): not in BTF, so fbt has no probe for
# it; sysinfo(2) (busybox uptime) calls it once.
d=$1
"$d" -l -n 'rawfbt:vmlinux:vfs_read:' | sed -E 's/^ *[0-9]+ / XX /'
"$d" -lv -n 'rawfbt:vmlinux:vfs_read:entry' | sed -n '3,20p'
f=$("$d" -l -n 'rawfbt:vmlinux:do_sysinfo*:entry' | awk 'NR == 2 { print $4 }')
echo "do_sysinfo's copy: $(echo "$f" | sed -E 's/[0-9]+$/N/')"
echo "fbt's probes of it: $("$d" -l -n "fbt:vmlinux:$f:entry" 2>/dev/null | grep -c entry)"
"$d" -q -c uptime -n "
rawfbt:vmlinux:$f:entry /pid == \$target/ { e++; }
rawfbt:vmlinux:$f:return /pid == \$target/ { r++; a0 = arg0; rv = arg1; }
END { printf(\"entries %d, returns %d, return arg0 %d, return value %d\n\", e, r, a0, rv); }" |
	grep -v up
# Entry arguments are the calling convention's registers: vfs_read's count.
"$d" -q -c 'dd if=/dev/zero of=/dev/null bs=1234 count=3' -n '
rawfbt:vmlinux:vfs_read:entry /pid == $target && arg2 == 1234/ { n++; }
END { printf("reads of 1234 bytes: %d\n", n); }' 2>&1 | grep -v records
# No args[]: nothing tells what a function without BTF takes.
"$d" -e -n "rawfbt:vmlinux:$f:entry { trace(args[0]); }" 2>&1 | sed "s/$f/F/g"
