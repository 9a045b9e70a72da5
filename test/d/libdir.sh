#!/bin/bash
# -L: D libraries compiled before the program, in depends_on order; a
# library needing an absent module is left out with its dependents; its
# clauses are never enabled; cycles, missing libraries and errors in a
# library are reported ("path", line N); a directory that is not there
# holds no libraries.
d=$1
lib=$(mktemp -d)
trap 'rm -rf "$lib"' EXIT
cat >"$lib/a.d" <<'D'
#pragma D depends_on library b.d
inline int answer = half * 2;
D
cat >"$lib/b.d" <<'D'
inline int half = 21;
typedef struct pair { int x; int y; } pair_t;
translator pair_t < int v > { x = v; y = v * half; };
D
cat >"$lib/c.d" <<'D'
#pragma D depends_on module dtrace_no_such_module
inline int absent = 1;
D
cat >"$lib/d.d" <<'D'
#pragma D depends_on library c.d
inline int absent_too = absent;
D
: >"$lib/empty.d"
run() { "$d" -L "$lib" -qn "$1" 2>&1 | sed 's/^dtrace: invalid probe specifier [^:]*}: //'; }
run 'BEGIN { printf("answer %d, pair %d %d, size %d\n", answer, xlate <pair_t> (2).x,
    xlate <pair_t> (2).y, sizeof (pair_t)); exit(0); }'
run 'BEGIN { trace(absent_too); exit(0); }'
"$d" -x libdir="$lib" -qn 'BEGIN { printf("libdir option: %d\n", answer); exit(0); }'
echo "== errors"
printf '#pragma D depends_on library e2.d\n' >"$lib/e1.d"
printf '#pragma D depends_on library e1.d\n' >"$lib/e2.d"
run 'BEGIN { exit(0); }'
printf '#pragma D depends_on library nowhere.d\n' >"$lib/e2.d"
run 'BEGIN { exit(0); }' | sed "s|$lib|LIB|"
printf 'inline int e1 = 1;\nBEGIN { printf("library clause ran\\n"); }\n' >"$lib/e1.d"
rm "$lib/e2.d"
run 'BEGIN { printf("e1 %d\n", e1); exit(0); }' | sed "s|$lib|LIB|"
printf 'BEGIN {\n\tno_such_function();\n}\n' >"$lib/e1.d"
run 'BEGIN { exit(0); }' | sed "s|$lib|LIB|"
printf 'inline int e1 = 1 +;\n' >"$lib/e1.d"
run 'BEGIN { exit(0); }' | sed "s|$lib|LIB|"
"$d" -L "$lib" -qn "BEGIN { exit(0); }" 2>/dev/null; echo "exit status $?"
"$d" -L "$lib/none" -qn 'BEGIN { printf("no such directory: %d\n", 1); exit(0); }' 2>&1
