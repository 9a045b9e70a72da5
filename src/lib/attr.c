/* Stability attributes written as DTrace writes them: "Name/Data/Class". */
#include "lib/attr.h"

#include <string.h>
#include <strings.h>

#include "lib/util.h"

static const char *const stability[] = { "Internal", "Private", "Obsolete", "External",
					  "Unstable", "Evolving", "Stable", "Standard" };
static const char *const classes[] = { "Unknown", "CPU", "Platform", "Group", "ISA", "Common" };

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
