/* The same for proc:::create's psinfo_t, declared by the program under -x nolibs. @root */
typedef struct psinfo {
	int pr_pid;
} psinfo_t;

proc:::create
{
	trace(args[0]->pr_pid);
}
