#!/bin/bash
# io:::start's args[2]: the file whose page cache a request reads into.
# The test makes a file, drops its cached pages (posix_fadvise, through
# dd's nocache) and reads it: its requests name the file (fi_name,
# fi_dirname, fi_pathname; fi_fs and fi_mount as /proc/self/mounts and
# stat say; fi_offset -1, a request does not say where in the file).  A
# direct read of it (into dd's own buffer, no file's page) names none.
# The Guide's iosnoop.d sees the read with the file's path.
dir=${DT_WORKLOADS:-/var/tmp}
f=$dir/io_file.$$.dat
trap 'rm -f "$f"' EXIT
dd if=/dev/urandom of="$f" bs=4k count=16 2>/dev/null
sync "$f"
dev=$(stat -c %d "$f")
maj=$((dev >> 8)) min=$((dev & 0xff))
if [ -z "$(sed -n 's/^DEVNAME=//p' /sys/dev/block/$maj:$min/uevent 2>/dev/null)" ]; then
	echo "io_file: $dir is not on a block device (set DT_WORKLOADS to a directory that is)" >&2
	exit 77
fi
mnt=$(stat -c %m "$f")
fs=$(awk -v m="$mnt" '$2 == m { t = $3 } END { print t }' /proc/self/mounts)
dd if="$f" iflag=nocache count=0 status=none

"$1" -q -c "dd if=$f of=/dev/null bs=64k status=none" -n '
io:::start /args[2]->fi_pathname == "'"$f"'"/ {
	@[args[0]->b_flags & B_READ ? "R" : "W", args[2]->fi_name, args[2]->fi_dirname,
	    args[2]->fi_fs, args[2]->fi_mount, args[2]->fi_offset, args[2]->fi_oflags] = count();
}
END { printa("%s %s %s %s %s %d %d\n", @); }' |
	awk -v dir="$dir" -v fs="$fs" -v mnt="$mnt" -v f="${f##*/}" '
	NF { if ($2 == f) $2 = "FILE"; if ($3 == dir) $3 = "DIR"; if ($4 == fs) $4 = "FS"
	     if ($5 == mnt) $5 = "MNT"; print }'

ours='args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min
"$1" -q -c "dd if=$f of=/dev/null bs=28k count=1 iflag=direct status=none" -n '
io:::start /'"$ours"' && args[0]->b_bcount == 28672/ {
	@[args[2]->fi_pathname, args[2]->fi_name, args[2]->fi_fs, args[2]->fi_offset] = count();
}
END { printa("direct: %s %s %s %d\n", @); }'

# The Dynamic Tracing Guide's iosnoop.d (its io chapter's first example):
# the read of the file is seen with its device and its path.
cat > "$f.d" <<'EOD'
#pragma D option quiet

BEGIN
{
	printf("%10s %58s %2s\n", "DEVICE", "FILE", "RW");
}

io:::start
{
	printf("%10s %58s %2s\n", args[1]->dev_statname,
	    args[2]->fi_pathname, args[0]->b_flags & B_READ ? "R" : "W");
}
EOD
trap 'rm -f "$f" "$f.d"' EXIT
dd if="$f" iflag=nocache count=0 status=none
name=$(sed -n 's/^DEVNAME=//p' /sys/dev/block/$maj:$min/uevent)
"$1" -s "$f.d" -c "dd if=$f of=/dev/null bs=64k status=none" |
	awk -v f="$f" -v dev="$name" '
	NR == 1 { print }
	$1 == dev && $2 == f && $3 == "R" { seen = 1 }
	END { print "iosnoop.d saw the read of the file:", seen + 0 }'
