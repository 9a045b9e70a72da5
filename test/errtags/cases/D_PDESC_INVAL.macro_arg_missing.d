/* $2 in a probe description with one argument given (DTrace does not say D_MACRO_UNDEF there). */
syscall::$2:entry
{
	trace($1);
}
