#!/bin/bash
# The library as installed: `cmake --install` into a temporary root, then
# examples/dtrace_count.c compiled with the installed header through
# pkg-config, linked to the shared and to the static library, and run.
# Also: the shared library exports only the dtrace_* API, and the
# installed dtrace uses nothing else.
# Usage: example.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
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
echo "static needs libdtrace.so: $(ldd "$tmp/count_static" | grep -c 'libdtrace\.so' || true)"
cmp "$tmp/shared.out" "$tmp/static.out" && echo "static output: the same"

# The shared library's exports: the dtrace_* API only.
echo "exports other than dtrace_*: $(nm -D --defined-only "$libdir/libdtrace.so" |
	awk '$3 !~ /^dtrace_/ && $3 != "LIBDTRACE_0"' | wc -l)"
# The installed command: linked to libdtrace.so, calling only its exports.
echo "dtrace needs libdtrace.so: $(ldd "$root/sbin/dtrace" | grep -c 'libdtrace\.so')"
echo "dtrace calls into libdtrace outside the API: $(nm -D --undefined-only "$root/sbin/dtrace" |
	awk '$2 ~ /^dt_/' | wc -l)"
echo "src/cmd includes: $(grep -ho '#include "[^"]*"' "$src"/src/cmd/*.c | sort -u | tr '\n' ' ')"
