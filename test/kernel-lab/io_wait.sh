#!/bin/sh
# io:::wait-start and wait-done (BPF trampolines on submit_bio_wait()) on
# a stock kernel, in the kernel lab: dd writes a block to a loop device
# and fsyncs it, and the cache flush is a bio dd waits for.  Both probes
# fire in dd, wait-done after wait-start in the same thread, with the
# bio's bufinfo_t and devinfo_t and no file.  Then the Dynamic Tracing
# Guide's iocpu.d (time on CPU and waiting for I/O, for dd instead of
# soffice.bin), its times replaced by N.
d=$1
modprobe loop 2>/dev/null
img=/tmp/io_wait.img
dd if=/dev/zero of=$img bs=1M count=4 2>/dev/null
dev=$(losetup -f) && losetup "$dev" $img || { echo "no loop device in the lab" >&2; exit 77; }
name=${dev#/dev/}
write="dd if=/dev/zero of=$dev bs=4k count=8 conv=fsync"

echo "== wait-start and wait-done"
"$d" -q -c "$write" -n '
io:::wait-start /pid == $target/ {
	self->t = timestamp;
	printf("wait-start %s %s %s %s %s\n", execname, args[0]->b_flags & B_WRITE ? "W" : "R",
	    args[1]->dev_statname, args[1]->dev_pathname, args[2]->fi_name);
}
io:::wait-done /pid == $target/ {
	printf("wait-done %s after wait-start in the same thread: %d %s\n", execname,
	    self->t != 0 && timestamp >= self->t, args[1]->dev_statname);
	self->t = 0;
}' 2>&1 | sed "s|$name|DEV|g" | grep -v records

echo "== iocpu.d"
cat > /tmp/iocpu.d <<'EOD'
#pragma D option quiet

sched:::on-cpu
/execname == "dd"/
{
	self->on = vtimestamp;
}

sched:::off-cpu
/self->on/
{
	@time["<on cpu>"] = sum(vtimestamp - self->on);
	self->on = 0;
}

io:::wait-start
/execname == "dd"/
{
	self->wait = timestamp;
}

io:::wait-done
/self->wait/
{
	@io[args[2]->fi_name] = sum(timestamp - self->wait);
	@time["<I/O wait>"] = sum(timestamp - self->wait);
	self->wait = 0;
}

END
{
	printf("Time breakdown (milliseconds):\n");
	normalize(@time, 1000000);
	printa("  %-50s %15@d\n", @time);

	printf("\nI/O wait breakdown (milliseconds):\n");
	normalize(@io, 1000000);
	printa("  %-50s %15@d\n", @io);
}
EOD
# printa orders by value: the times vary, so each aggregation's lines are sorted.
"$d" -s /tmp/iocpu.d -c "$write" 2>&1 | grep -v records | sed -E 's/ +[0-9]+$/ N/' |
	awk '/^  </ { print | "sort"; next } { close("sort"); print }'
losetup -d "$dev"
