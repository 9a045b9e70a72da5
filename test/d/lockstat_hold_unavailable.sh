#!/bin/bash
# lockstat's hold probes (acquire, release) need fexit on the kernel's
# lock functions.  Where the kernel refuses fentry/fexit programs, as this
# machine's does, each is still listed, and enabling it fails with the
# reason (they are tested in the kernel lab: test/kernel-lab/lockstat.sh).
d=$1
if "$d" -qn 'lockstat:::adaptive-release { exit(0); } BEGIN { exit(0); }' >/dev/null 2>&1; then
	echo "this kernel offers fexit: the hold probes work here" >&2
	exit 77
fi
for p in adaptive-acquire adaptive-release spin-acquire spin-release rw-acquire rw-release; do
	"$d" -l -n "lockstat:::$p" | sed -E '1d; s/^ *[0-9]+ +/ID /'
	"$d" -qn "lockstat:::$p { @ = count(); }" 2>&1 | sed -E 's/(no fexit: ).*/\1(why)/'
	echo "exit status ${PIPESTATUS[0]}"
done
