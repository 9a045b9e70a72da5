#!/bin/bash
# The pspec option (-x pspec or #pragma D option pspec): an outer-level word
# that could begin a declaration ("unsigned*", "long*p") is a probe
# description instead; in a file, a description with neither predicate nor
# actions is an error on its line.  Without the option the same word is a
# declaration.
dtrace=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
run() {
	"$dtrace" "$@" 2>&1 | sed "s|$tmp/||"
	echo "rc=${PIPESTATUS[0]}"
}
cat >"$tmp/glob.d" <<'EOF'
#pragma D option quiet

BEGIN
{
	printf("begin\n");
	exit(0);
}

unsigned*
{
	printf("never\n");
}
EOF
run -Z -x pspec -s "$tmp/glob.d"
{ echo '#pragma D option pspec'; cat "$tmp/glob.d"; } >"$tmp/pragma.d"
run -Z -s "$tmp/pragma.d"
run -Z -s "$tmp/glob.d"
printf '#pragma D option pspec\n\nBEGIN\n{\n\texit(0);\n}\n\nlong*p\n' >"$tmp/bare.d"
run -s "$tmp/bare.d"
printf 'BEGIN\n{\n\texit(0);\n}\n\nlong*p;\n' >"$tmp/decl.d"
run -q -s "$tmp/decl.d"
