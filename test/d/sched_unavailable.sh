#!/bin/bash
# The sched probes Linux has nothing to make from are listed (the Guide's
# arguments in -lv), and enabling one is an error that says why; a wider
# description leaves them out (and counts only the others), and -Z lets a
# description match only them.
"$1" -lvn sched:::change-pri | sed -n '/Argument Types/,$p'
for p in change-pri cpucaps-wakeup schedctl-nopreempt schedctl-preempt schedctl-yield; do
	"$1" -q -n "sched:::$p { exit(0); }"
	echo "exit status $?"
done 2>&1
listed=$("$1" -l -P sched | tail -n +2 | wc -l)
matched=$("$1" -n 'sched::: {}' -n 'BEGIN { exit(0); }' 2>&1 >/dev/null |
	sed -n "s/.*'sched::: *' matched \([0-9]*\) probes/\1/p")
echo "sched::: enabled, fewer than the $listed listed: $((matched > 0 && matched < listed))"
"$1" -q -Z -n 'sched:::change-pri {}' -n 'BEGIN { exit(0); }'
echo "-Z: exit status $?"
