/* args[ ] of a type the program declares under -x nolibs (bufinfo_t), no translator to it. @root */
typedef struct bufinfo {
	int b_flags;
} bufinfo_t;

io:::start
{
	trace(args[0]->b_flags);
}
