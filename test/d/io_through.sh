#!/bin/bash
# The Dynamic Tracing Guide's iothrough.d (throughput of each I/O into a
# quantize keyed by the device's names): its expressions once restricted
# to one direct write the test makes (the distribution's total and the
# value it got, recomputed from the known size), then the script as the
# Guide has it, which must see the test's device.  Its aggregation value
# and keys used to need more registers than BPF has.
dir=${DT_WORKLOADS:-/var/tmp}
f=$dir/io_through.$$.dat
dd if=/dev/zero of="$f" bs=4k count=8 2>/dev/null
sync "$f"
dev=$(stat -c %d "$f")
maj=$((dev >> 8)) min=$((dev & 0xff))
name=$(sed -n 's/^DEVNAME=//p' /sys/dev/block/$maj:$min/uevent 2>/dev/null)
if [ -z "$name" ]; then
	echo "io_through: $f is not on a block device" >&2
	rm -f "$f"
	exit 77
fi
write="dd if=/dev/zero of=$f bs=28k count=1 oflag=direct conv=notrunc status=none"
ours="args[1]->dev_major == $maj && args[1]->dev_minor == $min && args[0]->b_bcount == 28672"
"$1" -q -c "$write" -n "
io:::start
/$ours/
{
	start[args[0]->b_edev, args[0]->b_blkno] = timestamp;
}

io:::done
/$ours && start[args[0]->b_edev, args[0]->b_blkno]/
{
	this->elapsed = timestamp - start[args[0]->b_edev, args[0]->b_blkno];
	@[args[1]->dev_statname, args[1]->dev_pathname] =
	    quantize((args[0]->b_bcount * 976562) / this->elapsed);
	@same[(args[0]->b_bcount * 976562) / this->elapsed == 28672 * 976562 / this->elapsed] =
	    count();
	start[args[0]->b_edev, args[0]->b_blkno] = 0;
}

END
{
	printa(\"  %s (%s)\n%@d\n\", @);
	printa(\"same %d: %@d\n\", @same);
}" | awk -v name="$name" '
	/^ +-?[0-9]+ \|[@ ]*[0-9]+ *$/ { total += $NF; next }
	/Distribution/ { print "distribution"; next }
	{ gsub(name, "DEV"); print }
	END { print "total", total }'

cat > "$dir/io_through.$$.d" <<'EOF'
#pragma D option quiet

io:::start
{
	start[args[0]->b_edev, args[0]->b_blkno] = timestamp;
}

io:::done
/start[args[0]->b_edev, args[0]->b_blkno]/
{
	/* KB/s: (bytes / 1024) / (ns / 1000000000) = bytes * 976562 / ns */
	this->elapsed = timestamp - start[args[0]->b_edev, args[0]->b_blkno];
	@[args[1]->dev_statname, args[1]->dev_pathname] =
	    quantize((args[0]->b_bcount * 976562) / this->elapsed);
	start[args[0]->b_edev, args[0]->b_blkno] = 0;
}

END
{
	printa("  %s (%s)\n%@d\n", @);
}
EOF
if "$1" -s "$dir/io_through.$$.d" -c "$write" > "$dir/io_through.$$.out"; then
	grep -qxF "  $name (/dev/$name)" "$dir/io_through.$$.out" && echo "the Guide's script saw the write"
else
	echo "the Guide's script failed"
fi
rm -f "$f" "$dir/io_through.$$.d" "$dir/io_through.$$.out"
