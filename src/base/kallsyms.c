/*
 * /proc/kallsyms: "<address> <type> <name>[\t[<module>]]", one symbol a
 * line.  /sys/kernel/debug/kprobes/blacklist: "0x<start>-0x<end>\t<name>".
 */
#include "base/kallsyms.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define KALLSYMS "/proc/kallsyms"
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

/* A walk: the symbol types wanted (kallsyms) and the caller's function. */
struct walk {
	const char *types;
	dt_ksym_f *f;
	void *arg;
};

static int walk_lines(char *text, int (*line)(char *l, const struct walk *w), const struct walk *w)
{
	int rc = 0;

	for (char *l = text, *nl; rc >= 0 && l != NULL && *l != '\0'; l = nl) {
		nl = strchr(l, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		rc = line(l, w);
	}
	return rc < 0 ? rc : 0;
}

static int kallsyms_line(char *l, const struct walk *w)
{
	char *end, *mod;
	uint64_t addr = strtoull(l, &end, 16);

	if (end == l || end[0] != ' ' || end[1] == '\0' || end[2] != ' ')
		return 0;
	if (strchr(w->types, end[1]) == NULL)
		return 0;
	char *name = end + 3;
	mod = strchr(name, '\t');
	if (mod != NULL) {
		*mod++ = '\0';
		if (*mod == '[')
			mod++;
		char *close = strchr(mod, ']');
		if (close != NULL)
			*close = '\0';
	} else {
		mod = "vmlinux";
	}
	return w->f(w->arg, mod, name, addr);
}

int dt_kallsyms_walk_types(const char *types, dt_ksym_f *f, void *arg)
{
	struct walk w = { types, f, arg };
	char *text = dt_read_file(KALLSYMS, NULL);

	if (text == NULL)
		return -errno;
	int rc = walk_lines(text, kallsyms_line, &w);
	free(text);
	return rc;
}

int dt_kallsyms_walk(dt_ksym_f *f, void *arg)
{
	return dt_kallsyms_walk_types("tTwW", f, arg);
}

static int blacklist_line(char *l, const struct walk *w)
{
	char *name = strchr(l, '\t');

	if (name == NULL)
		return 0;
	*name++ = '\0';
	char *sp = strpbrk(name, " \t");
	if (sp != NULL)
		*sp = '\0';
	return w->f(w->arg, "vmlinux", name, strtoull(l, NULL, 16));
}

int dt_kprobe_blacklist_walk(dt_ksym_f *f, void *arg)
{
	char *text = dt_read_file(KPROBE_BLACKLIST, NULL);

	if (text == NULL)
		return 0;	/* no debugfs, or no kprobes: nothing is known */
	struct walk w = { NULL, f, arg };
	int rc = walk_lines(text, blacklist_line, &w);
	free(text);
	return rc;
}
