#!/bin/bash
# Several -c commands, and -c with -p, as DTrace documents: the first -c
# is $target (else the first -p); each process's end is reported once, as
# it ends (the order they end in varies: the lines are sorted here);
# dtrace exits when all have ended; none outlives an interrupted dtrace.
command -v pgrep >/dev/null || { echo "pgrep is not installed" >&2; exit 77; }
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# Each command says its pid ($$: sh runs the script in the -c child).
printf '#!/bin/sh\necho "self3 $$"\nexit 3\n' > "$t/exit3"
printf '#!/bin/sh\necho "selfterm $$"\nkill -TERM $$\n' > "$t/term"
printf '#!/bin/sh\necho "selfok $$"\n' > "$t/ok"
chmod +x "$t"/*
prog='BEGIN { printf("target %d\n", $target); }
proc:::exit /pid == $target/ { printf("exit of target %d\n", pid); }'

# The pids in the output become names: the one printed by "target" T, the
# others by the command that printed them.
names() {
	awk '
	$1 == "target" { tgt = $2 }
	$1 ~ /^self/ { who[$2] = substr($1, 5) }
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			s = line[i]
			for (p in who) {
				n = (p == tgt ? "T:" : "") who[p]
				gsub("(^| )" p "$", " " n, s)
				gsub("pid " p " ", "pid " n " ", s)
			}
			sub("^target " tgt "$", "target T", s)
			print s
		}
	}' | sort
}

echo "== two -c: exit 3 first (\$target), then SIGTERM"
"$d" -c "$t/exit3" -c "$t/term" -n "$prog" -o "$t/out" 2> "$t/err" > "$t/cout"
echo "rc=$?"
cat "$t/cout" "$t/out" "$t/err" | grep -v '^$' | grep -v 'CPU *ID' | sed 's/^ *[0-9]* *[0-9]* *:[A-Za-z]* *//' | names

echo "== three -c: SIGTERM first (\$target)"
"$d" -q -c "$t/term" -c "$t/ok" -c "$t/exit3" -n "$prog" > "$t/out" 2>&1
echo "rc=$?"
names < "$t/out"
echo "== the same, not quiet: one report each"
"$d" -c "$t/term" -c "$t/ok" -c "$t/exit3" -n 'BEGIN { printf("target %d\n", $target); }' > "$t/out" 2> "$t/err"
echo "rc=$?"
cat "$t/out" "$t/err" | grep -v '^$' | grep -v 'CPU *ID' | sed 's/^ *[0-9]* *[0-9]* *:[A-Za-z]* *//' | names

echo "== the other commands run from their start, \$target from main()"
"$d" -q -n 'syscall::arch_prctl:entry /ppid == $pid && !seen[pid]/ {
	seen[pid] = 1; @[pid == $target ? "target" : "other"] = count(); }' \
	-c "$t/ok" -c "$t/ok" -c "$t/ok" | grep -v self

echo "== user symbols of every command, read as it exits (each is followed)"
"$d" -q -n 'syscall::exit_group:entry /ppid == $pid/ {
	@[pid == $target ? "target" : "other", umod(uregs[R_PC])] = count(); }' \
	-c "$t/ok" -c "$t/ok" -c /bin/true | grep -v -e self -e '^$' | sed 's/  */ /g' | sort

echo "== -p then -c: the -c is \$target; dtrace ends when both have"
mkfifo "$t/go"
(read -r x < "$t/go"; exit 0) &
p=$!
printf '#!/bin/sh\necho "selfc $$"\necho go > %s\nexit 5\n' "$t/go" > "$t/release"
chmod +x "$t/release"
"$d" -p $p -c "$t/release" -n 'BEGIN { printf("target %d\n", $target); }' > "$t/out" 2> "$t/err"
echo "rc=$?"
cat "$t/out" "$t/err" | grep -v '^$' | grep -v 'CPU *ID' | sed 's/^ *[0-9]* *[0-9]* *:[A-Za-z]* *//' |
	sed "s/pid $p /pid P /" | names
wait $p

echo "== interrupted: no command outlives dtrace"
"$d" -q -c "sleep 1000" -c "sleep 1001" -c "$t/ok" -n 'BEGIN { printf("ready\n"); }' > "$t/out" 2>&1 &
dt=$!
for i in $(seq 100); do
	n=$(pgrep -P $dt -x sleep | wc -l)
	[ "$n" = 2 ] && grep -q ready "$t/out" && grep -q self "$t/out" && break
	sleep 0.1
done
kids=$(pgrep -P $dt -x sleep)
echo "sleeping children: $(echo $kids | wc -w)"
kill -INT $dt
wait $dt
echo "rc=$?"
grep -v self "$t/out"
for i in $(seq 50); do
	left=0
	for k in $kids; do [ -d /proc/$k ] && left=$((left + 1)); done
	[ $left = 0 ] && break
	sleep 0.1
done
echo "children left: $left"

echo "== a second command that cannot run: the first is killed"
"$d" -q -c "sleep 1002" -c "$t/nonexistent" -n 'BEGIN { exit(0); }' 2>&1 | sed "s|$t|T|g"
echo "rc=${PIPESTATUS[0]}"
for i in $(seq 50); do pgrep -f '^sleep 1002$' > /dev/null || break; sleep 0.1; done
echo "sleep left: $(pgrep -f '^sleep 1002$' > /dev/null && echo yes || echo no)"
