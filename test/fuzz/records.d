/*
 * The program whose record descriptions fuzz_records decodes: every kind
 * of record item the consumer prints (see src/base/rdesc.h), except
 * system(), which would run a fuzzed command.
 */
BEGIN
{
	trace(1); trace(-5); trace("lit"); trace(execname); trace(timestamp);
	trace((char)1); trace((short)-2); trace((uint8_t)3);
}

BEGIN
{
	printf("%d %i %u %x %X %o %c %s %5.3s %-10d %lld %llu %p %hd %hx %lx %S %C|%T|%Y|%%\n",
	    1, 2, 3, 4, 5, 6, 'c', execname, "abc", 7, 8ll, 9ull, (void *)10, (short)11,
	    (short)12, 13l, execname, 'x', walltimestamp, walltimestamp);
	printf("%a\n", 14);
	uaddr(15);
}

tick-1s
{
	stack(); ustack(); sym(arg0); func(arg0); mod(arg0); usym(arg1); ufunc(arg1);
	umod(arg1); uaddr(arg1); ustack(3, 64);
}

syscall::read:entry
{
	print((struct file *)arg0);
	print((int *)arg1);
	trace(copyinstr(arg1));
}

syscall::write:entry
{
	@c[execname] = count(); @q = quantize(arg2); @l = lquantize(arg2, 0, 100, 10);
	@s[pid, tid] = sum(arg2); @st = stddev(arg2); @av = avg(arg2);
	printa(@c); printa("%s %@d\n", @c); printa(@q); printa("%@d %@d\n", @st, @av);
	clear(@c); trunc(@s, 2); trunc(@q); normalize(@s, arg2); denormalize(@s);
	setopt("quiet"); setopt("aggsortkey", "1"); setopt("nosuchoption");
}

syscall::open*:entry
{
	self->s = speculation();
	speculate(self->s);
	printf("speculative %s\n", copyinstr(arg1));
}

syscall::open*:entry
/self->s/
{
	speculate(self->s);
	trace(arg2);
}

syscall::open*:return
/self->s && arg1 < 0/
{
	commit(self->s);
}

syscall::open*:return
/self->s && arg1 >= 0/
{
	discard(self->s);
}

END
{
	exit(3);
}
