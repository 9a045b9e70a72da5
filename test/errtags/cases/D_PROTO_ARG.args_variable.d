/* args[ ] indexed by a variable, not an integer constant @root. */
syscall::read:entry
{
	trace(args[arg0]);
}
