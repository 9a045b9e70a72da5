/* args[ ] beyond the probe's arguments (syscall::read:entry has three) @root. */
syscall::read:entry
{
	trace(args[3]);
}
