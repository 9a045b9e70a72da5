/* print( ) of a pointer to a type of size 0. */
BEGIN
{
	print((struct bpf_raw_tracepoint_args *)0);
}
