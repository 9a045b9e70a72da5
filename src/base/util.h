/* Small building blocks: an arena allocator, a growable string, vectors. */
#ifndef DT_UTIL_H
#define DT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DT_MIN(a, b) ((a) < (b) ? (a) : (b))
#define DT_MAX(a, b) ((a) > (b) ? (a) : (b))
#define DT_ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

/*
 * Arena: many small allocations freed together.  Allocation failure
 * returns NULL; callers in the compiler turn that into a compile error.
 */
struct dt_arena_chunk;
struct dt_arena {
	struct dt_arena_chunk *head;
};

void *dt_arena_alloc(struct dt_arena *a, size_t size);
void *dt_arena_zalloc(struct dt_arena *a, size_t size);
char *dt_arena_strdup(struct dt_arena *a, const char *s);
char *dt_arena_strndup(struct dt_arena *a, const char *s, size_t n);
char *dt_arena_printf(struct dt_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dt_arena_free(struct dt_arena *a);

/* Growable NUL-terminated byte string; `len` excludes the NUL. */
struct dt_strbuf {
	char *s;
	size_t len;
	size_t cap;
	bool oom;
};

void dt_sb_init(struct dt_strbuf *sb);
void dt_sb_free(struct dt_strbuf *sb);
void dt_sb_reset(struct dt_strbuf *sb);
void dt_sb_putc(struct dt_strbuf *sb, char c);
void dt_sb_puts(struct dt_strbuf *sb, const char *s);
void dt_sb_putn(struct dt_strbuf *sb, const char *s, size_t n);
void dt_sb_printf(struct dt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dt_sb_vprintf(struct dt_strbuf *sb, const char *fmt, va_list ap);
/* Take ownership of the buffer (caller frees); the strbuf is reset. */
char *dt_sb_take(struct dt_strbuf *sb);

/*
 * Generic growable array: `DT_VEC(type) name;` then dt_vec_push().
 * Elements are contiguous in .v; .n used, .cap allocated.
 */
#define DT_VEC(type) struct { type *v; size_t n, cap; }
int dt_vec_grow_(void **v, size_t *cap, size_t need, size_t elsize);
#define dt_vec_reserve(vec, need) \
	dt_vec_grow_((void **)&(vec)->v, &(vec)->cap, (need), sizeof(*(vec)->v))
/* Push by value; evaluates to 0 or -ENOMEM. */
#define dt_vec_push(vec, val) \
	(dt_vec_reserve((vec), (vec)->n + 1) ? -12 : ((vec)->v[(vec)->n++] = (val), 0))
#define dt_vec_free(vec) do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

/* Shell-style glob match as DTrace uses for probe descriptions (*, ?, [..], \). */
bool dt_gmatch(const char *s, const char *pattern);
/* Whether a string contains glob characters. */
bool dt_has_glob(const char *s);

/* Read a whole (small, e.g. tracefs/procfs) file; NUL-terminated; caller frees. */
char *dt_read_file(const char *path, size_t *lenp);
/*
 * Whether a kernel CPU list ("0-3,5,7-8\n", as /sys/devices/system/cpu/online
 * reads) holds cpu; false for a malformed list.
 */
bool dt_cpulist_has(const char *list, long long cpu);

#endif
