/* pid0: no process has pid 0. */
pid0:::entry
{
}
