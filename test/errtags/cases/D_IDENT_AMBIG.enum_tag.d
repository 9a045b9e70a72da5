/* An enum tag compared with an enum value, the tag also a global variable. */
int PIDTYPE_TGID;
BEGIN
{
	x = (enum pid_type)0 == PIDTYPE_TGID;
}
