/* The D library's own subroutine (fi_mount's) is not there for programs. */
BEGIN
{
	trace(__mountpoint(curthread->fs->root.mnt));
}
