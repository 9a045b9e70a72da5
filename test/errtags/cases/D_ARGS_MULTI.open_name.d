/* args[ ] in a clause whose description leaves the probe name open, matching probes that may differ. @root */
syscall::read:
{
	trace(args[0]);
}
