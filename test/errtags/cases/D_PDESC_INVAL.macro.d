/* A probe description naming a macro argument that was not given. */
syscall::$1:entry
{
}
