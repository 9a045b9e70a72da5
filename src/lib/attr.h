/* Stability attributes (name stability, data stability, dependency class). */
#ifndef DT_ATTR_H
#define DT_ATTR_H

enum { DT_STABILITY_INTERNAL = 0, DT_STABILITY_STANDARD = 7 };
enum { DT_CLASS_UNKNOWN = 0, DT_CLASS_COMMON = 5 };

struct dt_attr {
	int name, data, cls;
};

/*
 * "Stable/Evolving/Common" (names in any case; missing parts stay at
 * Standard/Standard/Common, as in DTrace): 0, or -1 for an unknown name.
 */
int dt_str2attr(const char *s, struct dt_attr *a);

/* The names, or NULL if out of range. */
const char *dt_stability_name(int s);
const char *dt_class_name(int c);

#endif
