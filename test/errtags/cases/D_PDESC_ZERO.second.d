/* The second description of a clause matches nothing (each must match). @root */
BEGIN,
syscall::read:nosuchname
{
}
