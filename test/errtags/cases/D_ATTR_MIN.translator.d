/*
 * A translator has the least attributes of its members: one reads a
 * kernel type (Private), and so does xlate to it.
 */
typedef struct info {
	int id;
	int ppid;
} info_t;

translator info_t < int64_t v > {
	id = v;
	ppid = ((struct task_struct *)v)->tgid;
};

dtrace:::BEGIN
{
	trace(xlate <info_t> (arg0).id);
}

#pragma D option amin=Evolving/Evolving/Common
