/* args[ ] translated to a D library type (bufinfo_t) with -x nolibs: no such type. @root */
io:::start
{
	trace(args[0]->b_flags);
}
