#!/bin/bash
# io provider: a direct write and a direct read of a file the test makes,
# seen by io:::start and io:::done with bufinfo_t and devinfo_t (device
# numbers and name checked against the file system's block device).  The
# requests are told apart by their sizes (7 and 5 pages): the block layer
# may issue them from a kernel thread rather than from dd.
dir=${DT_WORKLOADS:-/var/tmp}
f=$dir/io_start.$$.dat
dd if=/dev/zero of="$f" bs=4k count=8 2>/dev/null
sync "$f"
dev=$(stat -c %d "$f")
maj=$((dev >> 8)) min=$((dev & 0xff))
name=$(sed -n 's/^DEVNAME=//p' /sys/dev/block/$maj:$min/uevent 2>/dev/null)
if [ -z "$name" ]; then
	# Not on a block device (tmpfs, overlay): no I/O to see.
	rm -f "$f"
	echo "$dir is not on a block device (set DT_WORKLOADS to a directory that is)" >&2
	exit 77
fi
ours='args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min
"$1" -q -c "dd if=/dev/zero of=$f bs=28k count=1 oflag=direct conv=notrunc status=none" -n '
io:::start /'"$ours"' && args[0]->b_flags & B_WRITE && args[0]->b_bcount == 28672/ {
	@s["start", "W", args[0]->b_bcount, args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min',
	    args[1]->dev_statname == "'$name'", args[1]->dev_pathname == "/dev/'$name'"] = count();
}
io:::done /'"$ours"' && args[0]->b_flags & B_WRITE && args[0]->b_bcount == 28672/ {
	@d["done", "W", args[0]->b_bcount, args[0]->b_edev != 0] = count();
}
END {
	printa("%s %s bytes=%d dev=%d name=%d path=%d\n", @s);
	printa("%s %s bytes=%d dev=%d\n", @d);
}'
"$1" -q -c "dd if=$f of=/dev/null bs=20k count=1 iflag=direct status=none" -n '
io:::start /'"$ours"' && args[0]->b_flags & B_READ && args[0]->b_bcount == 20480/ {
	@s["start", "R", args[0]->b_bcount, args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min',
	    args[1]->dev_statname == "'$name'", args[1]->dev_pathname == "/dev/'$name'"] = count();
}
END { printa("%s %s bytes=%d dev=%d name=%d path=%d\n", @s); }'
rm -f "$f"
