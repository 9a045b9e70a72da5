#!/bin/bash
# Run test/install/NAME.sh with the remaining arguments and compare its
# stdout with NAME.out.  Skips (77) unless root (the programs trace), or
# when NAME.sh exits 77 (a tool it needs is missing: it says which).
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=$1; shift
if [ "$(id -u)" != 0 ]; then
	echo "SKIP $name: must run as root (BPF)"
	exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/$name.sh" "$@" > "$out"
rc=$?
[ $rc = 77 ] && { echo "SKIP $name"; exit 77; }
if ! diff -u "$here/$name.out" "$out"; then
	echo "FAIL $name: output differs"
	exit 1
fi
[ $rc = 0 ] || { echo "FAIL $name: exit status $rc"; exit 1; }
echo "PASS $name"
