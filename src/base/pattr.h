/*
 * Providers' stability attributes (DTrace's, provider by provider), what
 * #pragma D attributes changes of them in a handle, and what DTrace's
 * dt_probe_info() says of a probe description from them.
 */
#ifndef DT_PATTR_H
#define DT_PATTR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/attr.h"
#include "dtrace.h"

struct dt_registry;
struct dt_probe;
struct dt_provider;

extern const struct dt_pattr dt_pattr_dtrace;	/* BEGIN, END, ERROR */
extern const struct dt_pattr dt_pattr_kernel;	/* syscall, fbt */
extern const struct dt_pattr dt_pattr_profile;	/* profile, cpc */
extern const struct dt_pattr dt_pattr_sdt;	/* sdt, rawtp */
extern const struct dt_pattr dt_pattr_sdt_stable;	/* proc, sched, io, lockstat */
extern const struct dt_pattr dt_pattr_uprobe;	/* pid, usdt */

/*
 * A provider's attributes in this handle: as #pragma D attributes set
 * them, else its own (Unstable throughout for a provider that says none).
 * `name` is the provider's name in probe descriptions ("pid1234").
 */
const struct dt_pattr *dt_pattr_of(struct dt_registry *reg, const char *name,
				   const struct dt_provider *pv);

/*
 * #pragma D attributes <attr> provider <name> <part>: set one part
 * ("provider", "module", "function", "name", "args"); -EINVAL for
 * another part, -ENOMEM.
 */
int dt_pattr_set(struct dt_registry *reg, const char *name, const struct dt_provider *pv,
		 const char *part, struct dt_attr attr);

void dt_pattr_fini(struct dt_registry *reg);

/*
 * What dt_probe_info() says of a description (its fields, NULL or "" if
 * left empty) matched by `nmatch` probes, `first` the first of them: the
 * description's attributes (the least of those of the fields it names)
 * and the provider attributes its clause is checked with.  False, with
 * Unstable attributes, if it says nothing: no probe, or several that a
 * glob may make differ (EDT_UNSTABLE).
 */
bool dt_pdesc_info(struct dt_registry *reg, const char *const fields[4], const struct dt_probe *first,
		   size_t nmatch, struct dt_attr *descattr, const struct dt_pattr **ctx);

#endif
