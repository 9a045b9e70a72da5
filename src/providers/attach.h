/* Attaching a group's program: the links it keeps (attach.c). */
#ifndef DT_PROVIDERS_ATTACH_H
#define DT_PROVIDERS_ATTACH_H

struct bpf_link;
struct dt_group;
struct dt_registry;

/*
 * Keep a link just made for the group (destroyed with it), or, when `l` is
 * NULL, report the failure errno holds as "<fmt's text>: <strerror>".
 * 0 or a negative errno.
 */
int dt_group_link(struct dt_registry *reg, struct dt_group *g, struct bpf_link *l, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
