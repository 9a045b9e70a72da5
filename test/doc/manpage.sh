#!/bin/bash
# man/dtrace.8: renders without groff warnings; documents every command-line
# flag dtrace accepts and every -x option name src/base/options.c knows, and
# every JSON event and the output formats; its JSON example is the output of its command (the
# objects, with the timestamps and the CPU aside).
# Usage: manpage.sh SOURCE_DIR [DTRACE]   (DTRACE given and root: run the example)
# Exit status 77 (a skip) without groff or python3, or when the example
# cannot be run (no DTRACE, or not root) though the rest passed.
set -u
src=$1 dtrace=${2:-}
man=$src/man/dtrace.8
fail=0
err() { echo "FAIL: $*"; fail=1; }
for tool in groff python3; do
	command -v $tool >/dev/null || { echo "SKIP man page: $tool is not installed"; exit 77; }
done

w=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
[ -z "$w" ] || err "groff warnings: $w"
text=$(groff -man -rHY=0 -Tutf8 -P-c -P-b -P-u "$man" 2>/dev/null)

# Flags: the getopt string of src/cmd/dtrace.c.
optstr=$(sed -n 's/^#define OPTSTR "+\(.*\)"$/\1/p' "$src/src/cmd/dtrace.c" | tr -d ':')
[ -n "$optstr" ] || err "no OPTSTR in src/cmd/dtrace.c"
for ((i = 0; i < ${#optstr}; i++)); do
	c=${optstr:i:1}
	case $c in 3) c=32 ;; 6) c=64 ;; esac
	grep -q -- "^ *-$c\b\|, -$c\b" <<< "$text" || err "flag -$c is not documented"
done
# -x options: every name in the option table, each with its default where it has one.
opts=$(grep -o '{ "[a-z]*", OK_' "$src/src/base/options.c" | sed 's/{ "\([a-z]*\)".*/\1/')
# The table as this reads it: an empty or partial list would check nothing.
for o in bufsize quiet switchrate oformat; do
	grep -qx -- "$o" <<< "$opts" || err "option $o not found in src/base/options.c's table"
done
for o in $opts; do
	grep -qw -- "$o" <<< "$text" || err "option $o is not documented"
done
for e in probe aggregation fault error drop; do
	grep -q "^       $e\b" <<< "$text" || err "JSON event $e is not documented"
done
for s in "EXIT STATUS" "JSON OUTPUT" "OUTPUT FORMATS" "D OPTIONS" EXAMPLES DIAGNOSTICS; do
	grep -q "^$s" <<< "$text" || err "no section $s"
done

# The JSON example: valid, and what the command it shows prints.
example=$(sed -n '/prints (each object on one line)/,/^OUTPUT FORMATS/p' <<< "$text" |
	sed '1d;$d' | sed 's/^ *//' | tr -d '\n' | sed 's/}{"event"/}\n{"event"/g')
python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin.read().split("\n") if l]
print("man page JSON example: %d objects" % len(objs))
sys.exit(0 if objs else 1)
' <<< "$example" || err "the JSON example is not valid JSON, or not there"
if [ -n "$dtrace" ] && [ "$(id -u)" = 0 ]; then
	got=$("$dtrace" -q -x oformat=json -n 'BEGIN { printf("%s %d\n", "x", 42);
	    @c["a"] = count(); exit(0); }')
	norm='import json, sys
for l in sys.stdin.read().split("\n"):
    if l:
        o = json.loads(l)
        for k in ("timestamp", "walltimestamp", "cpu"):
            o.pop(k, None)
        print(json.dumps(o, sort_keys=True))'
	if [ "$(python3 -c "$norm" <<< "$example")" = "$(python3 -c "$norm" <<< "$got")" ]; then
		echo "man page JSON example: what dtrace prints"
	else
		err "the JSON example differs from dtrace's output: $got"
	fi
elif [ $fail = 0 ]; then
	echo "SKIP man page: the rest passes, but its JSON example is run only as root with DTRACE"
	exit 77
fi
[ $fail = 0 ] && echo "PASS man page"
exit $fail
