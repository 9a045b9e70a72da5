/* args[0] of proc:::create is a psinfo_t *, a type of the D library, absent under -x nolibs. @root */
proc:::create
{
	trace(args[0]->pr_pid);
}
