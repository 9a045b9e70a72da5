/* A probe description that matches no probe. @root */
syscall::nosuchsyscall:entry
{
}
