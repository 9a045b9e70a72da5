#!/bin/sh
# An entry probe on a function whose first instruction uprobes cannot take (a lock prefix). @root
[ "$(uname -m)" = x86_64 ] || { echo "x86-64 only" >&2; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "no C compiler" >&2; exit 77; }
t=$(mktemp -d) || exit 77
trap 'rm -rf "$t"' EXIT
cat > "$t/locked.c" <<'EOF'
#include <unistd.h>
__attribute__((naked, noinline)) void locked(long *p)
{
	__asm__ volatile("lock incq (%rdi)\n\tret");
}
int main(void)
{
	long x = 0;
	locked(&x);
	sleep(5);
	return 0;
}
EOF
cc -O0 -o "$t/locked" "$t/locked.c" 2>/dev/null || { echo "cannot build the workload" >&2; exit 77; }
"$1" -x errtags -e -c "$t/locked" -n 'pid$target:a.out:locked:entry'
