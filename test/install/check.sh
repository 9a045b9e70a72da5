#!/bin/bash
# Run test/install/NAME.sh with the remaining arguments and compare its
# stdout with NAME.out.  Skips (77) unless root: the programs trace.
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=$1; shift
if [ "$(id -u)" != 0 ]; then
	echo "$name: must run as root (BPF); skipping"
	exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/$name.sh" "$@" > "$out"
rc=$?
if ! diff -u "$here/$name.out" "$out"; then
	echo "FAIL $name: output differs"
	exit 1
fi
[ $rc = 0 ] || { echo "FAIL $name: exit status $rc"; exit 1; }
echo "PASS $name"
