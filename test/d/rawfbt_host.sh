#!/bin/bash
# rawfbt on this machine's kernel, which allows no kprobes: its probes are
# listed (from kallsyms: also functions BTF lacks, such as the copies the
# compiler makes, name.isra.0), enabling one says what is missing, and
# args[] does not exist.  (rawfbt itself runs in the kernel lab.)
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$d" -l -n 'rawfbt:vmlinux:vfs_read:' | sed -E 's/^ *[0-9]+ / XX /'
# A compiler's copy: listed by rawfbt, not by fbt.
f=$("$d" -l -n 'rawfbt:vmlinux:*.isra.0:entry' | awk 'NR == 2 { print $4 }')
[ -n "$f" ] && echo "rawfbt lists a .isra.0 function" || echo "rawfbt lists no .isra.0 function"
echo "fbt's probes of it: $("$d" -l -n "fbt:vmlinux:$f:entry" 2>/dev/null | grep -c entry)"
# Every function fbt lists, rawfbt lists too (fbt's are those of BTF).
"$d" -l -P fbt | awk 'NR > 1 { print $3 ":" $4 }' | sort -u > "$t/fbt"
"$d" -l -P rawfbt | awk 'NR > 1 { print $3 ":" $4 }' | sort -u > "$t/raw"
echo "fbt functions rawfbt lacks: $(comm -23 "$t/fbt" "$t/raw" | wc -l)"
echo "rawfbt lists more functions: $([ "$(wc -l < "$t/raw")" -gt "$(wc -l < "$t/fbt")" ] && echo yes || echo no)"
"$d" -n 'rawfbt::vfs_read:entry { n++; }' 2>&1
echo "rc $?"
"$d" -e -n 'rawfbt::vfs_read:entry { trace(args[0]); }' 2>&1
echo "rc $?"
"$d" -e -n 'rawfbt::vfs_read:return { trace(arg0); trace(arg1); }' 2>&1
echo "rc $?"
