#!/bin/bash
# -x ctypes and -x dtypes write the C container (intrinsic types) and the
# D container (typedefs, string, the program's types) as CTF that
# objdump --ctf reads, after every compile.
d=$1
objdump --help 2>/dev/null | grep -q -- '--ctf' || { echo "objdump cannot read CTF (binutils 2.36 or later)" >&2; exit 77; }
command -v objcopy >/dev/null || { echo "objcopy is not installed" >&2; exit 77; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$d" -x ctypes="$t/c.ctf" -x dtypes="$t/d.ctf" -e -n '
struct pt { int x; char tag[3]; };
typedef struct pt pt_t;
enum color { RED, GREEN = 5 };
BEGIN { exit(0); }' 2>/dev/null
for f in c d; do
	objcopy --add-section=.ctf="$t/$f.ctf" /bin/true "$t/$f.o" || exit 1
	objdump --ctf=.ctf "$t/$f.o" > "$t/$f.txt" || exit 1
done
grep -c 'CTF_VERSION_3' "$t/c.txt"
# The intrinsic integers, as written; names only (the ids follow the hash order).
grep -o '(kind 1) [A-Za-z_ ]*(format 0x[0-9a-f]*) (size 0x[0-9a-f]*)' "$t/c.txt" | sort
grep -o '(kind 10) pt_t (size 0x8)' "$t/d.txt"
grep -o '(kind 6) struct pt (size 0x8)' "$t/d.txt" | sort -u
grep -o '(kind 8) enum color (size 0x4)' "$t/d.txt" | sort -u
grep -o '(kind 10) string (size 0x100)' "$t/d.txt" | sort -u
grep -o '(kind 10) uint64_t (size 0x8)' "$t/d.txt"
