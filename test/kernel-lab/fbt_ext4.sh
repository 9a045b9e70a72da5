#!/bin/sh
# fbt on ext4 loaded as a module of Debian's generic kernel
# (fbt_ext4.prep): its functions listed from the module's BTF
# (/sys/kernel/btf/ext4), fbt:ext4::entry style descriptions, args[]
# typed from that BTF, through each mechanism.  The workload writes 3000
# bytes twice to a file on an ext4 image mounted through a loop device.
# rawfbt names the module's functions too.
d=$1
modprobe ext4 || exit 1
modprobe loop 2>/dev/null
echo "ext4 has BTF: $(ls /sys/kernel/btf | grep -c '^ext4$')"
n=$("$d" -l -n 'fbt:ext4::entry' | grep -c ' ext4 ')
echo "fbt:ext4::entry matches more than 500 functions: $([ "$n" -gt 500 ] && echo yes || echo no)"
"$d" -l -n 'fbt:ext4:ext4_file_write_iter:' | sed -E 's/^ *[0-9]+ / XX /'
"$d" -lv -n 'fbt:ext4:ext4_file_write_iter:entry' | sed -n '/Argument Types/,$p'
dd if=/dev/zero of=/tmp/ext4.img bs=1M count=16 2>/dev/null
mke2fs -q -t ext4 -F /tmp/ext4.img >/dev/null 2>&1 || { echo "mke2fs failed" >&2; exit 1; }
mkdir -p /mnt/e
mount -t ext4 -o loop /tmp/ext4.img /mnt/e || exit 1
for m in auto kprobe; do
	echo "== fbtmech=$m"
	"$d" -x fbtmech=$m -q -c 'dd if=/dev/zero of=/mnt/e/f bs=3000 count=2' -n '
	fbt:ext4:ext4_file_write_iter:entry /pid == $target/ {
		@w[probemod, args[0]->ki_pos, args[1]->count] = count();
	}
	fbt:ext4:ext4_file_write_iter:return /pid == $target/ { @r[args[1]] = count(); }' 2>&1 |
		grep -v records
done
echo "== a glob over the module's functions"
"$d" -q -c 'dd if=/dev/zero of=/mnt/e/g bs=3000 count=2' -n '
fbt:ext4:ext4_file_*:entry /pid == $target/ { @[probefunc] = count(); }' 2>&1 | grep -v records
echo "== rawfbt on the module"
"$d" -q -c 'dd if=/dev/zero of=/mnt/e/h bs=3000 count=2' -n '
rawfbt:ext4:ext4_file_write_iter:entry /pid == $target/ { @[probeprov, probemod] = count(); }' 2>&1 |
	grep -v records
umount /mnt/e
