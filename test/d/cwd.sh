#!/bin/bash
# The Guide's built-in cwd, in an opensnoop-style one-liner: the traced
# process's working directory (a directory the test makes, with a space
# in its name), and dtrace's own in BEGIN.
[ -n "${DT_WORKLOADS:-}" ] || { echo "cwd: DT_WORKLOADS is not set" >&2; exit 77; }
dir=$(mktemp -d /var/tmp/cwd.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/work dir" || exit 1
out=$(cd "$dir/work dir" && "$1" -q -c "$DT_WORKLOADS/open_missing" -n '
syscall::openat:entry /pid == $target/ { printf("%s %s\n", cwd, copyinstr(arg1)); }')
echo "${out//$dir/DIR}"
out=$(cd "$dir" && "$1" -qn 'BEGIN { printf("%s\n", cwd); exit(0); }')
echo "${out//$dir/DIR}"
