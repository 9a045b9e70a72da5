/* The types of USDT probes' arguments: the notes of dtrace -h and -G (usdt_types.h). */
#include "providers/usdt_types.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void dt_usdt_types_free(struct dt_usdt_types *t)
{
	for (int i = 0; i < t->nargs; i++) {
		free(t->native[i]);
		free(t->xlate[i]);
	}
	free(t->native);
	free(t->xlate);
	free(t->provider);
	free(t->probe);
	memset(t, 0, sizeof(*t));
}

/* The next NUL-terminated string of [*p, end), or NULL. */
static const char *next_str(const char **p, const char *end)
{
	const char *s = *p, *z = *p < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;

	if (z == NULL)
		return NULL;
	*p = z + 1;
	return s;
}

/* 0, -EINVAL (malformed), or -ENOMEM. */
static int parse(const char *d, size_t len, struct dt_usdt_types *t)
{
	const char *p = d, *end = d + len, *s, *x;
	const char *prov = next_str(&p, end), *probe = next_str(&p, end);
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (prov == NULL || probe == NULL || prov[0] == '\0' || probe[0] == '\0')
		return -EINVAL;
	/* Pairs up to the end, or to an empty native type (the descriptor's padding). */
	for (const char *q = p; (s = next_str(&q, end)) != NULL && s[0] != '\0' &&
	     next_str(&q, end) != NULL;)
		n++;
	if (n > DT_USDT_TYPES_MAX)
		return -EINVAL;
	t->provider = strdup(prov);
	t->probe = strdup(probe);
	t->native = calloc((size_t)n + 1, sizeof(*t->native));
	t->xlate = calloc((size_t)n + 1, sizeof(*t->xlate));
	if (t->provider == NULL || t->probe == NULL || t->native == NULL || t->xlate == NULL) {
		dt_usdt_types_free(t);
		return -ENOMEM;
	}
	for (int i = 0; i < n && (s = next_str(&p, end)) != NULL && (x = next_str(&p, end)); i++) {
		t->native[i] = strdup(s);
		t->xlate[i] = x[0] != '\0' ? strdup(x) : NULL;
		t->nargs = i + 1;
		if (t->native[i] == NULL || (x[0] != '\0' && t->xlate[i] == NULL)) {
			dt_usdt_types_free(t);
			return -ENOMEM;
		}
	}
	if (t->nargs == 1 && strcmp(t->native[0], DT_USDT_UNTYPED) == 0) {
		free(t->native[0]);
		free(t->xlate[0]);
		t->native[0] = t->xlate[0] = NULL;
		t->nargs = -1;
	}
	return 0;
}

int dt_usdt_types_walk(const void *data, size_t len,
		       int (*f)(struct dt_usdt_types *t, void *arg), void *arg)
{
	const unsigned char *p = data;
	size_t off = 0, olen = sizeof(DT_USDT_TYPES_OWNER);

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		size_t name_off = off + 12;
		size_t desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		size_t next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_off > len || next > len || desc_off + descsz > len)
			break;
		if (type == DT_USDT_TYPES_NOTE && namesz == olen &&
		    memcmp(p + name_off, DT_USDT_TYPES_OWNER, olen) == 0) {
			struct dt_usdt_types t;
			int rc = parse((const char *)p + desc_off, descsz, &t);
			if (rc == -ENOMEM)
				return rc;
			if (rc == 0) {
				rc = f(&t, arg);
				if (rc <= 0)
					dt_usdt_types_free(&t);
				if (rc < 0)
					return rc;
			}
		}
		off = next;
	}
	return 0;
}

size_t dt_usdt_types_desc(char *buf, size_t len, const char *provider, const char *probe,
			  const char *const *native, const char *const *xlate, int nargs)
{
	const char *untyped[2] = { DT_USDT_UNTYPED, "" };
	size_t n = 0;
	int k = nargs < 0 ? 2 : 2 * nargs;

	for (int i = -2; i < k; i++) {
		const char *s = i == -2 ? provider : i == -1 ? probe :
				nargs < 0 ? untyped[i] : i % 2 == 0 ? native[i / 2] : xlate[i / 2];
		if (s == NULL)
			s = "";
		size_t l = strlen(s) + 1;
		if (buf != NULL && n + l <= len)
			memcpy(buf + n, s, l);
		n += l;
	}
	return n;
}

const char *dt_usdt_size_type(int size)
{
	switch (size) {
	case 1: return "uint8_t";
	case 2: return "uint16_t";
	case 4: return "uint32_t";
	case 8: return "uint64_t";
	case -1: return "int8_t";
	case -2: return "int16_t";
	case -4: return "int32_t";
	case -8: return "int64_t";
	default: return NULL;
	}
}
