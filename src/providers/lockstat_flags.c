/* lock:contention_begin's flag values, from its format file. */
#include "providers/lockstat_flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "providers/tracefs.h"

/*
 * The value named "name" in the print fmt: an entry { <value>, "NAME" },
 * the value a number or (1U << n) as the kernel's macros expand.
 */
static bool flag_value(const char *text, const char *name, uint32_t *v)
{
	char quoted[32];

	snprintf(quoted, sizeof(quoted), "\"%s\"", name);
	for (const char *q = strstr(text, quoted); q != NULL; q = strstr(q + 1, quoted)) {
		const char *open = q;
		while (open > text && *open != '{' && *open != '}')
			open--;
		if (*open != '{')
			continue;
		const char *p = open + 1;
		while (*p == ' ' || *p == '(')
			p++;
		char *end;
		unsigned long base = strtoul(p, &end, 0);
		while (*end == 'U' || *end == 'u' || *end == 'L' || *end == 'l')
			end++;
		while (*end == ' ')
			end++;
		if (strncmp(end, "<<", 2) == 0) {
			unsigned long shift = strtoul(end + 2, &end, 0);
			if (shift >= 32)
				continue;
			base <<= shift;
		}
		while (*end == ' ' || *end == ')')
			end++;
		if (*end != ',' || base == 0 || base > UINT32_MAX)
			continue;
		*v = (uint32_t)base;
		return true;
	}
	return false;
}

bool dt_lock_flags_parse(const char *format, struct lock_flags *f, const char **missing)
{
	static const char *const names[] = { "SPIN", "READ", "WRITE", "RT", "PERCPU", "MUTEX" };
	uint32_t *vals[] = { &f->spin, &f->read, &f->write, &f->rt, &f->percpu, &f->mutex };
	const char *fmt = strstr(format, "print fmt:");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (fmt == NULL || !flag_value(fmt, names[i], vals[i])) {
			*missing = names[i];
			return false;
		}
	}
	return true;
}

bool dt_lock_flags_read(struct lock_flags *f, const char **missing)
{
	const char *base = dt_tracefs();
	char path[256], text[8192];

	*missing = "the format file";
	if (base == NULL)
		return false;
	snprintf(path, sizeof(path), "%s/events/lock/contention_begin/format", base);
	FILE *fp = fopen(path, "re");
	if (fp == NULL)
		return false;
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	return dt_lock_flags_parse(text, f, missing);
}
