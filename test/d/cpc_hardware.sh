#!/bin/bash
# A hardware event where the CPU has no PMU the kernel can use (as in
# most virtual machines): its probe is made when named, and enabling it
# fails with the kernel's reason; a name that is not a cpc probe (unknown
# mode, attributes, count not all digits, count 0) matches nothing.
d=$1
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	echo "this machine has a hardware PMU" >&2
	exit 77
fi
"$d" -n 'cpc:::cycles-all-100000 { @ = count(); }' 2>&1
echo "exit status $?"
"$d" -n 'cpc:::l1_dcache_load_misses-user-100000 { @ = count(); }' 2>&1
echo "exit status $?"
for p in cycles-any-100000 l1_dcache_loads-all-umask_0x7-10000 cpu_clock-all-10000bonehead \
    cpu_clock-all-0 cpu-clock-all-100000; do
	"$d" -e -n "cpc:::$p { @ = count(); }" 2>&1
	echo "exit status $?"
done
