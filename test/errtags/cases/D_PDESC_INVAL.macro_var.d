/* A probe description naming a macro variable that does not exist. */
syscall::$nosuch:entry
{
}
