/* The D library's own subroutine (fileinfo_t's paths) is not there for programs. */
BEGIN
{
	trace(__path_of(curthread->fs->root.mnt, curthread->fs->root.dentry));
}
