/* A kernel function named as a user symbol (double scoping operator). */
BEGIN
{
	x = vmlinux``vfs_read;
}
