#!/bin/bash
# -c and -p targets that exec, fork, die, stop or never existed: DTrace's
# messages, dtrace ends when its target does, and no target is left
# stopped or running behind it.
command -v pgrep >/dev/null || { echo "pgrep is not installed" >&2; exit 77; }
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
filter() { sed -e 's/pid [0-9]*/pid N/g' -e "s|$t|T|g"; }
printf '#!/bin/sh\nexec /bin/true\n' > "$t/execs"
printf '#!/bin/sh\n/bin/true & wait\nexit 3\n' > "$t/forks"
printf '#!/bin/sh\nkill -9 $$\n' > "$t/killed"
printf '#!/bin/sh\nkill -STOP $$\n' > "$t/stops"
chmod +x "$t"/*
prog='pid$target:libc.so.6:malloc:entry { n++; } proc:::exit /pid == $target/ { printf("exit\n"); } END { printf("end\n"); }'
for s in execs forks killed; do
	echo "== -c: the target $s"
	"$d" -q -c "$t/$s" -n "$prog" 2>&1 | filter
	echo "rc=${PIPESTATUS[0]}"
	# Without -q, DTrace's notice of how it ended (stderr).
	"$d" -c "$t/$s" -n "$prog" 2>&1 > /dev/null | filter
done

echo "== -c: the target stops itself; SIGTERM ends dtrace and the target"
"$d" -q -c "$t/stops" -n 'BEGIN { printf("ready\n"); } END { printf("end\n"); }' > "$t/out" 2>&1 &
dt=$!
for i in $(seq 100); do
	c=$(pgrep -P $dt | head -1)
	[ -n "$c" ] && [ "$(awk '{print $3}' /proc/$c/stat 2>/dev/null)" = T ] && grep -q ready "$t/out" && break
	sleep 0.1
done
echo "target stopped: $([ -n "$c" ] && echo yes || echo no)"
kill -TERM $dt
wait $dt
echo "rc=$?"
filter < "$t/out"
for i in $(seq 50); do [ -d /proc/$c ] || break; sleep 0.1; done
echo "target left: $([ -d /proc/$c ] && echo "yes ($(awk '{print $3}' /proc/$c/stat))" || echo no)"

echo "== -p: the target exits while traced"
mkfifo "$t/go"
(read -r x < "$t/go"; exit 0) &
p=$!
"$d" -q -p $p -n 'BEGIN { printf("ready\n"); } END { printf("end\n"); }' > "$t/out" 2>&1 &
dt=$!
for i in $(seq 100); do grep -q ready "$t/out" && break; sleep 0.1; done
echo go > "$t/go"
wait $dt
echo "rc=$?"
filter < "$t/out"

echo "== -p: no such process"
"$d" -q -p 999999999 -n 'BEGIN { exit(0); }' 2>&1 | filter
echo "rc=${PIPESTATUS[0]}"
echo "== -c: no such program"
"$d" -q -c "$t/nonexistent" -n 'BEGIN { exit(0); }' 2>&1 | filter
echo "rc=${PIPESTATUS[0]}"
