/* String-keyed hash table (linear probing; no deletion needed here). */
#include "base/htab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint32_t dt_strhash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct dt_htab_ent *find(const struct dt_htab *h, const char *key, uint32_t hash)
{
	size_t mask = h->cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct dt_htab_ent *e = &h->ents[i];
		if (e->key == NULL || (e->hash == hash && strcmp(e->key, key) == 0))
			return e;
	}
}

void *dt_htab_get(const struct dt_htab *h, const char *key)
{
	if (h->cap == 0)
		return NULL;
	struct dt_htab_ent *e = find(h, key, dt_strhash(key));
	return e->key ? e->val : NULL;
}

static int grow(struct dt_htab *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 64;
	struct dt_htab_ent *old = h->ents;
	size_t ocap = h->cap;

	h->ents = calloc(ncap, sizeof(*h->ents));
	if (h->ents == NULL) {
		h->ents = old;
		return -ENOMEM;
	}
	h->cap = ncap;
	for (size_t i = 0; i < ocap; i++) {
		if (old[i].key != NULL)
			*find(h, old[i].key, old[i].hash) = old[i];
	}
	free(old);
	return 0;
}

int dt_htab_put(struct dt_htab *h, const char *key, void *val)
{
	if ((h->n + 1) * 4 > h->cap * 3 && grow(h) < 0)
		return -ENOMEM;
	uint32_t hash = dt_strhash(key);
	struct dt_htab_ent *e = find(h, key, hash);
	if (e->key == NULL) {
		e->key = key;
		e->hash = hash;
		h->n++;
	}
	e->val = val;
	return 0;
}

void dt_htab_free(struct dt_htab *h)
{
	free(h->ents);
	memset(h, 0, sizeof(*h));
}

int dt_htab_next(const struct dt_htab *h, size_t *iter, const char **key, void **val)
{
	while (*iter < h->cap) {
		struct dt_htab_ent *e = &h->ents[(*iter)++];
		if (e->key != NULL) {
			*key = e->key;
			*val = e->val;
			return 1;
		}
	}
	return 0;
}
