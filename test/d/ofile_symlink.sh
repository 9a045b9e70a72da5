#!/bin/bash
# -o appends to the file named, as DTrace's -o does, and dtrace (root)
# does not follow a symbolic link someone else could have planted there:
# in a sticky world-writable directory (like /tmp) a link owned by another
# user is refused; a link of root's (or the user's) is followed there, but
# not in a directory others can write without the sticky bit.
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
other=nobody
run() { "$d" -q -o "$1" -n 'BEGIN { printf("traced\n"); exit(0); }' 2>&1 | sed "s|$t|T|g"; echo "rc ${PIPESTATUS[0]}"; }

mkdir "$t/sticky" "$t/open"
chmod 1777 "$t/sticky"; chmod 0777 "$t/open"
echo secret > "$t/secret"

echo "== a plain file, twice: appended"
run "$t/plain"; run "$t/plain"; cat "$t/plain"

echo "== a link planted by another user in a sticky directory"
ln -s "$t/secret" "$t/sticky/planted"; chown -h $other "$t/sticky/planted"
run "$t/sticky/planted"; cat "$t/secret"
echo "== a dangling one: nothing created"
ln -s "$t/created" "$t/sticky/dangling"; chown -h $other "$t/sticky/dangling"
run "$t/sticky/dangling"; ls "$t/created" 2>&1 | sed "s|$t|T|g"

echo "== root's link in the sticky directory: followed"
echo start > "$t/real"
ln -s "$t/real" "$t/sticky/mine"
run "$t/sticky/mine"; cat "$t/real"

echo "== root's link in a directory anyone can change: refused"
ln -s "$t/real" "$t/open/mine"
run "$t/open/mine"; cat "$t/real"

echo "== /dev/stdout (root's link in /dev)"
"$d" -q -o /dev/stdout -n 'BEGIN { printf("to stdout\n"); exit(0); }' | cat; echo "rc ${PIPESTATUS[0]}"

echo "== -h through a planted link: refused"
printf 'provider p { probe q(); };\n' > "$t/p.d"
ln -s "$t/secret" "$t/sticky/p.h"; chown -h $other "$t/sticky/p.h"
"$d" -h -s "$t/p.d" -o "$t/sticky/p.h" 2>&1 | sed "s|$t|T|g"; echo "rc ${PIPESTATUS[0]}"; cat "$t/secret"
