/*
 * An args[ ] the probe gives untranslated, of a D library type
 * (sched:::enqueue's cpuinfo_t *): unresolved under -x nolibs, DTrace
 * names it the translated type (the two are one). @root
 */
sched:::enqueue
{
	trace(args[2]->cpu_id);
}
