#!/bin/sh
# A statically linked process (DTrace traces only dynamically-linked ones). @root
command -v cc >/dev/null 2>&1 || { echo "no C compiler" >&2; exit 77; }
t=$(mktemp -d) || exit 77
trap 'rm -rf "$t"' EXIT
printf '#include <unistd.h>\nint main(void) { sleep(5); return 0; }\n' > "$t/static.c"
cc -static -o "$t/static" "$t/static.c" 2>/dev/null || { echo "cannot link statically" >&2; exit 77; }
"$1" -x errtags -e -c "$t/static" -n 'pid$target:a.out:main:entry'
