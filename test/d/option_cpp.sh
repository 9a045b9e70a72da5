#!/bin/bash
# -x cpp is -C (DTrace's cpp compiler flag): the preprocessor runs over a
# script file and over -n programs; without it a #if is refused.
dtrace=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/prog.d" <<'EOF'
#define TWICE(x) ((x) * 2)
#if TWICE(3) == 6
BEGIN
{
	printf("%d\n", TWICE(21));
	exit(0);
}
#endif
EOF
"$dtrace" -q -x cpp -s "$tmp/prog.d"; echo "rc=$?"
"$dtrace" -q -x cpp -D HALF=17 -n 'BEGIN { printf("%d\n", HALF * 2); exit(0); }'; echo "rc=$?"
"$dtrace" -q -s "$tmp/prog.d" 2>&1 | sed "s|$tmp/||"; echo "rc=${PIPESTATUS[0]}"
