/* A string-keyed hash table of pointers (open addressing, grows). */
#ifndef DT_HTAB_H
#define DT_HTAB_H

#include <stddef.h>
#include <stdint.h>

struct dt_htab_ent {
	const char *key;	/* not copied: must outlive the entry */
	void *val;
	uint32_t hash;
};

struct dt_htab {
	struct dt_htab_ent *ents;
	size_t cap;		/* power of two or 0 */
	size_t n;
};

uint32_t dt_strhash(const char *s);
void *dt_htab_get(const struct dt_htab *h, const char *key);
/* Insert or replace; returns 0 or -ENOMEM. */
int dt_htab_put(struct dt_htab *h, const char *key, void *val);
void dt_htab_free(struct dt_htab *h);

/* Iterate: for (size_t i = 0; dt_htab_next(h, &i, &k, &v); ) ... */
int dt_htab_next(const struct dt_htab *h, size_t *iter, const char **key, void **val);

#endif
