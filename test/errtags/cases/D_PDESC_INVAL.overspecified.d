/* A probe description with five fields. */
syscall:vmlinux:read:entry:extra
{
}
