/* A negative args[ ] index @root. */
syscall::read:entry
{
	trace(args[-1]);
}
