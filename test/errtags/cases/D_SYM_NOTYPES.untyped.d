/* A kernel data symbol without type information (no debuginfo here; BTF types only per-CPU variables). @root */
BEGIN
{
	trace(`__start_rodata);
}
