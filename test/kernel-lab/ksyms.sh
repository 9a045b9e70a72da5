#!/bin/sh
# Kernel data symbols in Debian's stock kernel: per-CPU variables typed by
# its BTF; other variables (`jiffies) typed by its debuginfo, which
# ksyms.prep fetched ($KSYMS_DEBUGINFO); their addresses from /proc/kallsyms
# or, for a kernel that lists no data symbols, from the debuginfo.
d=$1
run() { "$d" -x errtags -qn "$1" 2>&1; }

echo "== BTF only"
run 'BEGIN { printf("cpu_number is cpu: %d\n", `cpu_number == cpu); exit(0); }'
run 'BEGIN { printf("runqueues.cpu is cpu: %d\n", vmlinux`runqueues.cpu == cpu); exit(0); }'
run 'BEGIN { trace(`jiffies); exit(0); }'
run 'BEGIN { `cpu_number = 1; exit(0); }'
run 'BEGIN { trace(`no_such_symbol_here); exit(0); }'
run 'BEGIN { trace(ext4`ext4_li_info); exit(0); }'

echo "== with the kernel's debuginfo"
mkdir -p /usr/lib/debug/boot
ln -s "$KSYMS_DEBUGINFO" "/usr/lib/debug/boot/vmlinux-$(uname -r)"
check='BEGIN {
	printf("jiffies > 0: %d, same as jiffies_64: %d, same address: %d\n",
	    `jiffies > 0, vmlinux`jiffies == `jiffies_64, &`jiffies == (void *)&`jiffies_64);
	printf("sizeof: jiffies %d, init_task %d (struct task_struct %d)\n",
	    sizeof (`jiffies), sizeof (`init_task), sizeof (struct task_struct));
	printf("init_task: comm %s, pid %d, first task %d\n", `init_task.comm, `init_task.pid,
	    `init_task.tasks.next != NULL);
	printf("nr_cpu_ids %d, max_pfn > 0: %d, cpu_number is cpu: %d\n", `nr_cpu_ids,
	    `max_pfn > 0, `cpu_number == cpu);
	printf("linux_banner: %.14s, __per_cpu_offset[cpu] != 0: %d\n", `linux_banner,
	    `__per_cpu_offset[cpu] != 0);
	exit(0);
}'
run "$check"
run 'BEGIN { `jiffies = 0; exit(0); }'
run 'BEGIN { `jiffies++; exit(0); }'

echo "== a kernel that lists no data symbols (kallsyms without CONFIG_KALLSYMS_ALL)"
grep -E '^[0-9a-f]+ [tT] ' /proc/kallsyms >/tmp/kallsyms.text
# Unless jiffies is gone from kallsyms, this would test nothing new.
mount -o bind /tmp/kallsyms.text /proc/kallsyms || echo "mount failed"
grep -q ' jiffies$' /proc/kallsyms && echo "kallsyms still lists jiffies"
run "$check"
umount /proc/kallsyms

echo "== a file there that is not this kernel's debuginfo"
ln -sf "$d" "/usr/lib/debug/boot/vmlinux-$(uname -r)"
[ "$(readlink "/usr/lib/debug/boot/vmlinux-$(uname -r)")" = "$d" ] || echo "the file is not in place"
run 'BEGIN { trace(`jiffies); exit(0); }'
exit 0
