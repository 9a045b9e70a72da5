/*
 * Stability attributes (name stability, data stability, dependency class),
 * DTrace's values and operations on them.
 */
#ifndef DT_ATTR_H
#define DT_ATTR_H

#include <stdbool.h>
#include <stddef.h>

enum {
	DT_STABILITY_INTERNAL, DT_STABILITY_PRIVATE, DT_STABILITY_OBSOLETE,
	DT_STABILITY_EXTERNAL, DT_STABILITY_UNSTABLE, DT_STABILITY_EVOLVING,
	DT_STABILITY_STABLE, DT_STABILITY_STANDARD,
};
enum {
	DT_CLASS_UNKNOWN, DT_CLASS_CPU, DT_CLASS_PLATFORM, DT_CLASS_GROUP, DT_CLASS_ISA,
	DT_CLASS_COMMON,
};

struct dt_attr {
	int name, data, cls;
};

/* Initializer: DT_ATTR(STABLE, PRIVATE, COMMON). */
#define DT_ATTR(n, d, c) { DT_STABILITY_##n, DT_STABILITY_##d, DT_CLASS_##c }

/* A provider's attributes: of each part of its probe descriptions, and of args[]. */
struct dt_pattr {
	struct dt_attr provider, mod, func, name, args;
};

/* What D gives everything by default: Stable/Stable/Common. */
extern const struct dt_attr dt_attr_default;
/* The greatest: Standard/Standard/Common. */
extern const struct dt_attr dt_attr_max;
/* Kernel types and symbols: Private/Private/Unknown. */
extern const struct dt_attr dt_attr_private;
/* A description DTrace can say nothing stable of: Unstable/Unstable/Common throughout. */
extern const struct dt_pattr dt_pattr_unstable;

/*
 * "Stable/Evolving/Common" (names in any case; missing parts stay at
 * Standard/Standard/Common, as in DTrace): 0, or -1 for an unknown name.
 */
int dt_str2attr(const char *s, struct dt_attr *a);

/* The names, or NULL if out of range. */
const char *dt_stability_name(int s);
const char *dt_class_name(int c);

/* Each part the lesser of the two. */
struct dt_attr dt_attr_min(struct dt_attr a, struct dt_attr b);

/* Whether any part of a is less than that part of min (DTrace's dt_attr_cmp() < 0). */
bool dt_attr_below(struct dt_attr a, struct dt_attr min);

/* "Name/Data/Class" into buf. */
const char *dt_attr_str(struct dt_attr a, char *buf, size_t len);

#endif
