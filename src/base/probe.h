/* The probe registry: probes by id and name, matched by descriptions. */
#ifndef DT_PROBE_H
#define DT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/util.h"
#include "dtrace.h"

struct dt_core;
struct dt_procs;
struct dt_provider;
struct dt_pattr;
struct dt_uprocs;
struct dt_fbt;

/*
 * The probe registry's part of the handle: the providers, the probes they
 * listed, and what providers keep of their own.  Providers are handed it.
 */
struct dt_registry {
	struct dt_core *core;
	struct dt_procs *procs;			/* the -c and -p processes (pid, usdt) */
	DT_VEC(struct dt_probe *) probes;	/* by id - 1 */
	struct dt_htab probe_names;		/* "prov:mod:func:name" -> probe */
	const struct dt_provider *const *providers;
	size_t nproviders;
	uint32_t populated;			/* providers fully listed (bitmask) */
	struct dt_htab prov_pattr;		/* providers' attributes #pragma D attributes set */
	struct dt_uprocs *uprocs;		/* processes the pid/usdt providers read */
	struct dt_fbt *fbt;			/* fbt: kernel functions, kernel features */
};

/* A probe description: four glob patterns, or a probe id. */
struct dt_pdesc {
	char *prov, *mod, *func, *name;
	char *text;		/* the original specifier, for messages */
	int line;
	unsigned long id;	/* numeric probe ID (-i), 0 if none */
};

struct dt_probe {
	uint32_t id;
	const struct dt_provider *prov;
	const char *desc[4];		/* provider, module, function, name */
	uint64_t data;			/* provider data: syscall number, period ... */
	const void *priv;		/* provider data: names, formats ... */
};

int dt_probes_init(struct dt_registry *reg, const struct dt_provider *const *providers, size_t n);
void dt_probes_fini(struct dt_registry *reg);

/* Register a probe (strings are copied); returns it or NULL. */
struct dt_probe *dt_probe_add(struct dt_registry *reg, const struct dt_provider *prov,
			      const char *mod, const char *func, const char *name,
			      uint64_t data, const void *priv);

/* The same, with a provider name of its own ("pid1234"). */
struct dt_probe *dt_probe_add_named(struct dt_registry *reg, const struct dt_provider *prov,
				    const char *provname, const char *mod, const char *func,
				    const char *name, uint64_t data, const void *priv);

/* The probe named prov:mod:func:name, or NULL. */
struct dt_probe *dt_probe_lookup(struct dt_registry *reg, const char *prov, const char *mod,
				 const char *func, const char *name);

/*
 * A provider's error in matching a description, with DTrace's error tag
 * (D_PROC_FUNC ...) for the compiler to report; returns -err.
 */
int dt_probe_error(struct dt_registry *reg, int err, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct dt_probe *dt_probe_by_id(struct dt_registry *reg, uint32_t id);

typedef int dt_probe_match_f(struct dt_registry *reg, struct dt_probe *prp, void *arg);

/*
 * Call f for every probe matching the description (populating providers
 * that may match).  Returns the number matched or a negative errno.
 */
int dt_probe_match(struct dt_registry *reg, const struct dt_pdesc *pd, dt_probe_match_f *f,
		   void *arg);

/* Make sure every provider is populated (dtrace -l). */
int dt_probes_populate_all(struct dt_registry *reg);

/* Field strings and their offsets in the dt_probes map values. */
const char *dt_probe_field(const struct dt_probe *prp, int which);
uint32_t dt_probe_field_offset(int which);
#define DT_PROBE_MAP_VALUE 384

/* "prov:mod:func:name" into buf. */
const char *dt_probe_fullname(const struct dt_probe *prp, char *buf, size_t len);

/*
 * After a compile error: add what the system lacks when that explains it
 * (an unavailable provider, no kernel BTF) to the message (hint.c).
 */
void dt_compile_hint(struct dt_registry *reg);

/* The provider named `name`, or NULL. */
const struct dt_provider *dt_provider_lookup(struct dt_registry *reg, const char *name);

#endif
