#!/bin/sh
# fbt on a module's functions (its BTF is /sys/kernel/btf/<module>): brd,
# the RAM disk, read through its page path.  Run by run-lab-tests with the
# kernel's modules (fbt_modules.lab).
d=$1
modprobe brd rd_nr=1 rd_size=1024 || exit 1
echo "brd has BTF: $(ls /sys/kernel/btf | grep -c '^brd$')"
"$d" -l -n 'fbt:brd:brd_rw_page:' | sed -E 's/^ *[0-9]+ / XX /'
for m in auto kprobe; do
	echo "== fbtmech=$m"
	"$d" -x fbtmech=$m -q -c 'dd if=/dev/ram0 of=/dev/null bs=4096 count=4' -n '
	fbt:brd:brd_rw_page:entry { e++; m = probemod; }
	fbt:brd:brd_rw_page:return { r++; }
	END { printf("%s: entries %d, returns %d, equal %d\n", m, e > 0, r > 0, e == r); }' 2>&1 |
		grep -v records
done
echo "== every brd function (a wide glob over a module)"
"$d" -q -c 'dd if=/dev/ram0 of=/dev/null bs=4096 count=4' -n '
fbt:brd::entry { f[probefunc] = 1; }
END { printf("brd_rw_page %d, brd_do_bvec %d\n", f["brd_rw_page"], f["brd_do_bvec"]); }' 2>&1 |
	grep -v records
