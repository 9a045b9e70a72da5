#!/bin/bash
# `cpack` builds a .deb of the install tree; its dependencies are declared
# (and satisfied on this Debian system); unpacked with dpkg -x into a
# temporary root (nothing is installed on the machine), the dtrace in it
# runs, with its library, man page, header, pkg-config file and completion.
# Usage: deb.sh BUILD_DIR DTRACE_SOURCE_DIR
set -eu
build=$1 src=$2
for tool in cpack dpkg-deb dpkg-query python3 ldd; do
	command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1 ||
	{ cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/pkg/*.deb)
f() { dpkg-deb -f "$deb" "$1"; }
echo "package: $(f Package) $(f Version) $(f Architecture)"
deps=$(f Depends)
for d in libbpf1 libelf1 libprotobuf-c1 libc6; do
	if [[ ", $deps," == *", $d "* || ", $deps," == *", $d,"* ]]; then
		echo "depends on $d"
	else
		echo "MISSING dependency $d in: $deps"
	fi
done
# Each dependency is satisfied by what this system has installed.
IFS=',' read -ra clauses <<< "$deps"
ok=1
for c in "${clauses[@]}"; do
	c=$(echo "$c" | sed 's/^ *//; s/ *$//')
	name=${c%% *}
	have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
	if [ -z "$have" ]; then ok=0; echo "not installed here: $name"; continue; fi
	if [[ $c =~ \(([<>=]+)\ ([^\)]*)\) ]]; then
		op=${BASH_REMATCH[1]} ver=${BASH_REMATCH[2]}
		case $op in '>=') op=ge ;; '<=') op=le ;; '>>') op=gt ;; '<<') op=lt ;; '=') op=eq ;; esac
		dpkg --compare-versions "$have" "$op" "$ver" || { ok=0; echo "too old here: $c ($have)"; }
	fi
done
echo "dependencies satisfied on this system: $([ $ok = 1 ] && echo yes || echo no)"
echo "recommends: $(f Recommends)"

dpkg-deb -x "$deb" "$tmp/root"
r=$tmp/root
for p in usr/sbin/dtrace usr/include/dtrace.h usr/share/man/man8/dtrace.8 \
	usr/share/bash-completion/completions/dtrace; do
	[ -e "$r/$p" ] && echo "has /$p"
done
echo "has libdtrace.so.0: $(find "$r/usr" -name 'libdtrace.so.0' | wc -l)"
echo "has libdtrace.a: $(find "$r/usr" -name 'libdtrace.a' | wc -l)"
echo "has libdtrace.pc: $(find "$r/usr" -name 'libdtrace.pc' | wc -l)"
grep -h '^prefix=' "$(find "$r/usr" -name libdtrace.pc)"
# The packaged dtrace runs from the unpacked tree (its library found beside it).
"$r/usr/sbin/dtrace" -V | sed 's/[0-9][0-9.]*$/VERSION/'
"$r/usr/sbin/dtrace" -qn 'BEGIN { printf("packaged dtrace runs\n"); exit(0); }'
"$r/usr/sbin/dtrace" -x oformat=json -n 'BEGIN { @["k"] = count(); exit(0); }' 2>/dev/null |
	python3 "$src/test/d/jsonl.py" 'print([e["event"] for e in ev])'
echo "libdtrace from the package: $(ldd "$r/usr/sbin/dtrace" | grep -c "$r")"
