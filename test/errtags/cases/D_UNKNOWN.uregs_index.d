/* A uregs[ ] index past the architecture's last register (R_TRAPNO). */
BEGIN
{
	trace(uregs[R_TRAPNO * 2]);
}
