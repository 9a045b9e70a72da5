#!/bin/bash
# cpc probes on a software event, firing on each page fault (count 1) of
# the workload (fault_pages: 2000 pages touched from user mode, 1000
# written by read() in the kernel): at least that many in each mode, with
# the user's or the kernel's program counter (arg1 or arg0) and not the
# other; and mode all sees exactly what user and kernel see together.
# A probe that is not listed (a count other than DTrace's) is made by
# naming it.
d=$1
"$d" -q -c "$DT_WORKLOADS/fault_pages 2000 1000" -n '
int u, k, a, ubad, kbad;
cpc:::page_faults-user-1 /pid == $target/ { u++; ubad += arg0 != 0 || arg1 == 0; }
cpc:::page_faults-kernel-1 /pid == $target/ { k++; kbad += arg0 == 0 || arg1 != 0; }
cpc:::page_faults-all-1 /pid == $target/ { a++; }
END {
	printf("user mode: at least 2000 %d, all with only a user pc %d\n", u >= 2000, ubad == 0);
	printf("kernel mode: at least 1000 %d, all with only a kernel pc %d\n", k >= 1000, kbad == 0);
	printf("all modes: user + kernel %d\n", a == u + k);
}'
"$d" -l -n cpc:::minor_faults-user-250 | sed -E '1d; s/^ *[0-9]+ +/ID /'
