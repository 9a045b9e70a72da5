/* Stability attributes: DTrace's names and values, and their minimum. */
#include "base/attr.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

static const char *const stability[] = { "Internal", "Private", "Obsolete", "External",
					  "Unstable", "Evolving", "Stable", "Standard" };
static const char *const classes[] = { "Unknown", "CPU", "Platform", "Group", "ISA", "Common" };

const struct dt_attr dt_attr_default = DT_ATTR(STABLE, STABLE, COMMON);
const struct dt_attr dt_attr_max = DT_ATTR(STANDARD, STANDARD, COMMON);
const struct dt_attr dt_attr_private = DT_ATTR(PRIVATE, PRIVATE, UNKNOWN);
const struct dt_pattr dt_pattr_unstable = {
	DT_ATTR(UNSTABLE, UNSTABLE, COMMON), DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
	DT_ATTR(UNSTABLE, UNSTABLE, COMMON), DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
	DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
};

const char *dt_stability_name(int s)
{
	return s >= 0 && s < (int)ARRAY_SIZE(stability) ? stability[s] : NULL;
}

const char *dt_class_name(int c)
{
	return c >= 0 && c < (int)ARRAY_SIZE(classes) ? classes[c] : NULL;
}

static int lookup(const char *const *names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncasecmp(names[i], s, len) == 0)
			return i;
	return -1;
}

int dt_str2attr(const char *s, struct dt_attr *a)
{
	int *part[3] = { &a->name, &a->data, &a->cls };

	a->name = a->data = DT_STABILITY_STANDARD;
	a->cls = DT_CLASS_COMMON;
	/* Parts left out (or empty) keep the maximum; what follows the class is ignored. */
	for (int i = 0; i < 3 && *s != '\0'; i++) {
		const char *slash = strchr(s, '/');
		size_t len = slash ? (size_t)(slash - s) : strlen(s);
		int v = i < 2 ? lookup(stability, (int)ARRAY_SIZE(stability), s, len)
			      : lookup(classes, (int)ARRAY_SIZE(classes), s, len);
		if (v < 0)
			return -1;
		*part[i] = v;
		s += len + (slash != NULL);
	}
	/* As DTrace: nothing may follow the class. */
	return *s == '\0' ? 0 : -1;
}

static int min(int a, int b)
{
	return a < b ? a : b;
}

struct dt_attr dt_attr_min(struct dt_attr a, struct dt_attr b)
{
	struct dt_attr m = { min(a.name, b.name), min(a.data, b.data), min(a.cls, b.cls) };

	return m;
}

bool dt_attr_below(struct dt_attr a, struct dt_attr min)
{
	return a.name < min.name || a.data < min.data || a.cls < min.cls;
}

const char *dt_attr_str(struct dt_attr a, char *buf, size_t len)
{
	const char *n = dt_stability_name(a.name), *d = dt_stability_name(a.data);
	const char *c = dt_class_name(a.cls);

	snprintf(buf, len, "%s/%s/%s", n ? n : "?", d ? d : "?", c ? c : "?");
	return buf;
}
