#!/bin/bash
# Soak of -x oformat=openmetrics: a tick-1s printa() of system-call counts
# and latency histograms rewrites the file DT_SOAK_SECONDS (60) times
# while a reader opens and reads it in a loop, as a scraper would.  Every
# read is a whole file (it ends in "# EOF" and every line is a comment or
# a sample), promtool (Debian's prometheus) accepts every version read,
# more than one version is seen, and no temporary file is left beside it.
# Usage: openmetrics_soak.sh DTRACE
set -u
d=$1
secs=${DT_SOAK_SECONDS:-60}
for tool in promtool python3; do
	command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 77; }
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/out" "$t/seen"
f=$t/out/dtrace.prom

"$d" -x oformat=openmetrics -o "$f" -qn '
syscall:::entry { self->ts = timestamp; @calls[execname, probefunc] = count(); }
syscall:::return /self->ts/ { @lat[probefunc] = quantize(timestamp - self->ts); self->ts = 0; }
tick-1s { printa(@calls); printa(@lat); }
tick-1s /++n == $1/ { exit(0); }' "$secs" > "$t/stdout" 2> "$t/err" &
dt=$!

python3 - "$f" "$t/seen" "$dt" <<'PY' > "$t/reader"
import hashlib, os, re, sys
path, seen, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? -?[0-9]+$')
reads = bad = 0
versions = set()
def alive():
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
while alive():
    try:
        with open(path, 'rb') as fp:
            data = fp.read()
    except FileNotFoundError:
        continue            # not written yet
    reads += 1
    text = data.decode('utf-8', 'replace')
    lines = text.split('\n')
    whole = text.endswith('# EOF\n') and all(
        l.startswith('# ') or sample.match(l) for l in lines[:-1])
    if not whole:
        bad += 1
        continue
    h = hashlib.sha1(data).hexdigest()
    if h not in versions:
        versions.add(h)
        with open(os.path.join(seen, h), 'wb') as out:
            out.write(data)
print("reads:", "some" if reads > 0 else "none")
print("reads that were not a whole file:", bad)
print("versions seen:", "more than one" if len(versions) > 1 else len(versions))
PY
wait $dt
echo "rc $?"
cat "$t/reader"
ok=yes
for v in "$t"/seen/*; do
	promtool check metrics < "$v" > "$t/promtool" 2>&1 || { ok=no; cat "$t/promtool" >&2; }
done
echo "promtool on every version: $ok"
echo "left in the directory: $(ls -A "$t/out" | tr '\n' ' ')"
grep -v '^$' "$t/stdout" | head -5
cat "$t/err" >&2
