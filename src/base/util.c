/* Arena, string buffer, vectors, glob matching, file slurping. */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dt_arena_chunk {
	struct dt_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

#define ARENA_CHUNK (64 * 1024)

void *dt_arena_alloc(struct dt_arena *a, size_t size)
{
	struct dt_arena_chunk *c = a->head;

	size = DT_ALIGN(size, sizeof(max_align_t));
	if (c == NULL || c->size - c->used < size) {
		size_t csize = size > ARENA_CHUNK / 2 ? size : ARENA_CHUNK;

		c = malloc(sizeof(*c) + csize);
		if (c == NULL)
			return NULL;
		c->used = 0;
		c->size = csize;
		/* Big one-off allocations go behind the current chunk. */
		if (a->head != NULL && csize != ARENA_CHUNK) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

void *dt_arena_zalloc(struct dt_arena *a, size_t size)
{
	void *p = dt_arena_alloc(a, size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

char *dt_arena_strndup(struct dt_arena *a, const char *s, size_t n)
{
	char *p = dt_arena_alloc(a, n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *dt_arena_strdup(struct dt_arena *a, const char *s)
{
	return dt_arena_strndup(a, s, strlen(s));
}

char *dt_arena_printf(struct dt_arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = dt_arena_alloc(a, (size_t)n + 1);
	if (p == NULL)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void dt_arena_free(struct dt_arena *a)
{
	struct dt_arena_chunk *c = a->head;

	while (c != NULL) {
		struct dt_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
}

void dt_sb_init(struct dt_strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void dt_sb_free(struct dt_strbuf *sb)
{
	free(sb->s);
	dt_sb_init(sb);
}

void dt_sb_reset(struct dt_strbuf *sb)
{
	sb->len = 0;
	if (sb->s != NULL)
		sb->s[0] = '\0';
}

static bool sb_reserve(struct dt_strbuf *sb, size_t extra)
{
	if (sb->oom)
		return false;
	if (sb->len + extra + 1 <= sb->cap)
		return true;
	size_t cap = sb->cap ? sb->cap * 2 : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *s = realloc(sb->s, cap);
	if (s == NULL) {
		sb->oom = true;
		return false;
	}
	sb->s = s;
	sb->cap = cap;
	return true;
}

void dt_sb_putn(struct dt_strbuf *sb, const char *s, size_t n)
{
	if (!sb_reserve(sb, n))
		return;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void dt_sb_putc(struct dt_strbuf *sb, char c)
{
	dt_sb_putn(sb, &c, 1);
}

void dt_sb_puts(struct dt_strbuf *sb, const char *s)
{
	dt_sb_putn(sb, s, strlen(s));
}

void dt_sb_vprintf(struct dt_strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !sb_reserve(sb, (size_t)n))
		return;
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void dt_sb_printf(struct dt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dt_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *dt_sb_take(struct dt_strbuf *sb)
{
	char *s = sb->s;

	if (s == NULL)
		s = strdup("");
	dt_sb_init(sb);
	return s;
}

int dt_vec_grow_(void **v, size_t *cap, size_t need, size_t elsize)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *nv = realloc(*v, ncap * elsize);
	if (nv == NULL)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Match one bracket expression at p against c; return pointer past ']' or NULL. */
static const char *gmatch_class(const char *p, unsigned char c, bool *matched)
{
	bool neg = false, ok = false;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	const char *start = p;
	while (*p != '\0' && (*p != ']' || p == start)) {
		unsigned char lo = (unsigned char)*p, hi = lo;
		if (p[1] == '-' && p[2] != ']' && p[2] != '\0') {
			hi = (unsigned char)p[2];
			p += 3;
		} else {
			p++;
		}
		if (c >= lo && c <= hi)
			ok = true;
	}
	if (*p != ']')
		return NULL;
	*matched = ok != neg;
	return p + 1;
}

bool dt_gmatch(const char *s, const char *p)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		switch (*p) {
		case '\0':
			if (*s == '\0')
				return true;
			break;
		case '*':
			star_p = ++p;
			star_s = s;
			continue;
		case '?':
			if (*s == '\0')
				break;
			s++;
			p++;
			continue;
		case '[': {
			bool m = false;
			const char *np = *s ? gmatch_class(p + 1, (unsigned char)*s, &m) : NULL;
			if (np == NULL) {
				/* Unterminated class: match '[' literally. */
				if (*s == '[' && gmatch_class(p + 1, 0, &m) == NULL) {
					s++;
					p++;
					continue;
				}
				break;
			}
			if (!m)
				break;
			s++;
			p = np;
			continue;
		}
		case '\\':
			if (p[1] != '\0')
				p++;
			/* fall through */
		default:
			if (*s != *p)
				break;
			s++;
			p++;
			continue;
		}
		/* Mismatch: backtrack to the last star. */
		if (star_p == NULL || *star_s == '\0')
			return false;
		s = ++star_s;
		p = star_p;
	}
}

bool dt_has_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

char *dt_read_file(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	while (buf != NULL) {
		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (nb == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			buf = NULL;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	int saved = errno;
	close(fd);
	if (buf != NULL) {
		buf[len] = '\0';
		if (lenp)
			*lenp = len;
	}
	errno = saved;
	return buf;
}

bool dt_cpulist_has(const char *list, long long cpu)
{
	const char *p = list;

	while (*p != '\0' && *p != '\n') {
		char *end;
		errno = 0;
		long long lo = strtoll(p, &end, 10), hi = lo;
		if (end == p || errno != 0 || lo < 0)
			return false;
		p = end;
		if (*p == '-') {
			hi = strtoll(p + 1, &end, 10);
			if (end == p + 1 || errno != 0 || hi < lo)
				return false;
			p = end;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		if (*p == ',')
			p++;
		else if (*p != '\0' && *p != '\n')
			return false;
	}
	return false;
}
