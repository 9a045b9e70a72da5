#!/bin/bash
# -x noresolve: user addresses in ustack(), uaddr(), usym() and ufunc()
# print as DTrace prints them unresolved, "object:0xoffset", the offset
# counted from the start of the mapping that holds the address (usym() and
# ufunc() the offset of the function's start); umod() is unchanged.  Each
# offset printed is turned back into function+offset here, from the
# workload's symbol table and the load segment that mapping comes from.
bin=$DT_WORKLOADS/stack_work
out=$("$1" -x noresolve -qn '
syscall::getppid:entry /pid == $target/ {
	ustack(3);
	uaddr(ucaller); printf("|\n");
	usym(ucaller); printf("|\n");
	ufunc(ucaller); printf("|\n");
	umod(ucaller); printf("|\n");
	exit(0);
}' -c "$bin 1") || exit 1
base=$(readelf -lW "$bin" | awk '$1 == "LOAD" && / R E / { print $3; exit }')
[ -n "$base" ] || { echo "no executable segment in $bin" >&2; exit 1; }
syms=$(nm -n --defined-only "$bin" | while read -r a t n; do
	[[ $t == [Tt] ]] && echo "$((16#$a)) $n"
done)
echo "$out" | while IFS= read -r line; do
	if [[ $line =~ ^(.*)stack_work:0x([0-9a-f]+)(.*)$ ]]; then
		link=$(( (base & ~0xfff) + 0x${BASH_REMATCH[2]} ))
		name=$(echo "$syms" | awk -v a="$link" '
			{ if ($1 + 0 <= a + 0) { f = $2; s = $1 } }
			END { if (f == "") print "?"; else if (a > s) printf "%s+0x%x", f, a - s; else print f }')
		echo "${BASH_REMATCH[1]}stack_work:$name${BASH_REMATCH[3]}" | sed 's/ *|$/ |/'
	else
		echo "$line" | sed 's/ *|$/ |/'
	fi
done
