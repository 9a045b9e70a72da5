#!/bin/bash
# The library as installed: `cmake --install` into a temporary root, then
# examples/dtrace_count.c compiled with the installed header through
# pkg-config, linked to the shared and to the static library, and run.
# Also: the shared library exports only the dtrace_* API, and the
# installed dtrace uses nothing else.
# Usage: example.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
for tool in cc pkg-config nm ldd; do
	command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp cmake --install "$build" --prefix /usr >/dev/null
root=$tmp/usr
pcdir=$(dirname "$(find "$root" -name libdtrace.pc)")
export PKG_CONFIG_PATH=$pcdir
pc() { pkg-config --define-variable=prefix="$root" "$@" libdtrace; }
echo "pkg-config: libdtrace $(pc --modversion)"
libdir=$(pc --variable=libdir)
ls "$root/include"

# Shared: only the public header is on the include path.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $(pc --cflags) "$src/examples/dtrace_count.c" \
	-o "$tmp/count" $(pc --libs)
LD_LIBRARY_PATH=$libdir "$tmp/count" > "$tmp/shared.out"
cat "$tmp/shared.out"
echo "needs libdtrace.so: $(LD_LIBRARY_PATH=$libdir ldd "$tmp/count" | grep -c 'libdtrace\.so')"

# Static: the private requirements (libbpf, libelf, zlib) come from the .pc file.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $(pc --cflags) "$src/examples/dtrace_count.c" \
	-o "$tmp/count_static" $(pc --static --libs | sed 's/-ldtrace\b/-l:libdtrace.a/')
"$tmp/count_static" > "$tmp/static.out"
# ldd's list, checked to be one (with the C library) before it is searched.
needs=$(ldd "$tmp/count_static")
grep -q 'libc\.so' <<< "$needs" || { echo "ldd lists no libc.so for count_static: $needs" >&2; exit 1; }
echo "static needs libdtrace.so: $(grep -c 'libdtrace\.so' <<< "$needs" || true)"
cmp "$tmp/shared.out" "$tmp/static.out" && echo "static output: the same"

# The shared library's exports: the dtrace_* API only.  nm's lists are
# checked to hold dtrace_open before they are searched: nm failing must not
# read as "nothing else".
exports=$(nm -D --defined-only "$libdir/libdtrace.so")
grep -q ' dtrace_open' <<< "$exports" || { echo "nm lists no dtrace_open in libdtrace.so" >&2; exit 1; }
echo "exports other than dtrace_*: $(awk '$3 !~ /^dtrace_/ && $3 != "LIBDTRACE_0"' <<< "$exports" | wc -l)"
# The installed command: linked to libdtrace.so, calling only its exports.
echo "dtrace needs libdtrace.so: $(ldd "$root/sbin/dtrace" | grep -c 'libdtrace\.so')"
imports=$(nm -D --undefined-only "$root/sbin/dtrace")
grep -q ' dtrace_open' <<< "$imports" || { echo "nm lists no dtrace_open that dtrace calls" >&2; exit 1; }
echo "dtrace calls into libdtrace outside the API: $(awk '$2 ~ /^dt_/' <<< "$imports" | wc -l)"
echo "src/cmd includes: $(grep -ho '#include "[^"]*"' "$src"/src/cmd/*.c | sort -u | tr '\n' ' ')"
