/*
 * When the kernel refuses to create a map: which option sized it, so the
 * error says what to lower.
 */
#ifndef DT_LIB_MAP_LIMITS_H
#define DT_LIB_MAP_LIMITS_H

struct dtrace_hdl;
struct bpf_object;

/*
 * The object failed to load and no program was refused: find the map the
 * kernel will not create and set the handle's error ("the kernel refused
 * the principal buffer (bufsize 1g): Cannot allocate memory: lower bufsize
 * (-b or -x bufsize)").  `rc` is the load's negative errno, returned (or
 * the map's own) with the message; 0, and no message, when no map is
 * refused and rc is not ENOMEM or E2BIG (not a map's size, then).
 */
int dt_map_refused_error(struct dtrace_hdl *dtp, struct bpf_object *obj, int rc);

#endif
