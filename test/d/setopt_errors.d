/*
 * A setopt() that fails is reported as DTrace's dt_setopt() reports it:
 * with the clause and the probe whose record asked, an option given no
 * value shown (and set) as "1", and tracing goes on.  A run-time option
 * that is not dynamic (bufsize) is refused while tracing before its value
 * is looked at, as dtrace_setopt() does.
 */
#pragma D option quiet
BEGIN
{
	printf("begin\n");
}
BEGIN
{
	setopt("nosuchopt");
	setopt("nosuchopt", "3");
	setopt("bufsize", "zz");
	setopt("aggsortrev");
	@[1] = sum(10);
	@[2] = sum(20);
	printa("%d %@d\n", @);
	exit(0);
}
END
{
	setopt("nosuchopt");
	printf("end\n");
}
