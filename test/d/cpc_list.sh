#!/bin/bash
# cpc lists a probe (<event>-all-1000000000, as DTrace) for each event
# this machine can count: every software event, under the names DTrace
# for Linux takes from libpfm (PERF_COUNT_SW_... and perf's aliases, in
# lower case, '-' made '_'); -lv shows cpc's stability and no arguments.
# Hardware events are listed only where the CPU has a PMU the kernel can
# use, so they are left out here.
d=$1
"$d" -l -P cpc | awk 'NR > 1 { print $NF }' |
	grep -Ev '^(perf_count_hw_|cycles|cpu_cycles|instructions|cache_|branch|bus_|stalled_|idle_|ref_|l1_|llc_|dtlb_|itlb_|node_)'
"$d" -lv -n cpc:::cpu_clock-kernel-5000 | sed 1d | sed -E '1s/^ *[0-9]+ +/ID /'
