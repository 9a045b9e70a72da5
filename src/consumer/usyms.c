/* User symbols from /proc/PID/maps and ELF symbol tables (usyms.h). */
#include "consumer/usyms.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "consumer/debuginfo.h"
#include "providers/elf_syms.h"

/* An ELF file, read on first use. */
struct ufile {
	dev_t dev;
	ino_t ino;
	char *path;		/* as the mappings name it */
	char *name;		/* DTrace's module name: the file name */
	struct dt_elf *elf;	/* NULL until read */
	struct dt_elf *dbg;	/* its separate debug file's symbols, if any */
	bool tried;		/* read (or failed to be) */
	int fd;			/* held open for a tracked process (-1: not) */
};

struct umap {
	uint64_t start, end, off;
	size_t file;		/* index in dt_usyms.files */
	char *alt;		/* another way to open the file while the process lives */
};

struct uproc {
	pid_t pid;
	DT_VEC(struct umap) maps;
	/*
	 * Mappings of files that an earlier read saw and a later one did not
	 * (a program before its exec, a library unloaded): an address
	 * recorded then may belong to them.
	 */
	DT_VEC(struct umap) gone;
	uint64_t read_ns;	/* when the mappings were read (0: never) */
	char *exe;		/* its executable's path when last read (NULL: unknown) */
	bool hold;		/* hold the files its code is mapped from */
};

struct dt_usyms {
	DT_VEC(struct ufile) files;
	DT_VEC(struct uproc *) procs;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct dt_usyms *dt_usyms_new(void)
{
	return calloc(1, sizeof(struct dt_usyms));
}

static void free_maps(struct uproc *p)
{
	for (size_t i = 0; i < p->maps.n; i++)
		free(p->maps.v[i].alt);
	p->maps.n = 0;
}

static void free_proc(struct uproc *p)
{
	free(p->exe);
	free_maps(p);
	dt_vec_free(&p->maps);
	for (size_t i = 0; i < p->gone.n; i++)
		free(p->gone.v[i].alt);
	dt_vec_free(&p->gone);
	free(p);
}

static bool same_map(const struct umap *a, const struct umap *b)
{
	return a->start == b->start && a->end == b->end && a->off == b->off && a->file == b->file;
}

static bool has_map(const struct umap *v, size_t n, const struct umap *m)
{
	for (size_t i = 0; i < n; i++)
		if (same_map(&v[i], m))
			return true;
	return false;
}

/* Keep the mappings of `old` (n of them) that p's new ones lack. */
static int keep_gone(struct uproc *p, struct umap *old, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && !has_map(p->maps.v, p->maps.n, &old[i]) &&
		    !has_map(p->gone.v, p->gone.n, &old[i])) {
			if (dt_vec_push(&p->gone, old[i]) == 0)
				continue;
			rc = -ENOMEM;
		}
		free(old[i].alt);
	}
	free(old);
	return rc;
}

void dt_usyms_free(struct dt_usyms *us)
{
	if (us == NULL)
		return;
	for (size_t i = 0; i < us->procs.n; i++)
		free_proc(us->procs.v[i]);
	dt_vec_free(&us->procs);
	for (size_t i = 0; i < us->files.n; i++) {
		dt_elf_free(us->files.v[i].elf);
		dt_elf_free(us->files.v[i].dbg);
		free(us->files.v[i].path);
		free(us->files.v[i].name);
		if (us->files.v[i].fd >= 0)
			close(us->files.v[i].fd);
	}
	dt_vec_free(&us->files);
	free(us);
}

/*
 * The file (dev, ino, path), added if new; its index, or -1.  A file
 * removed since it was mapped is named "path (deleted)": it is the same
 * file as before.
 */
static long file_index(struct dt_usyms *us, dev_t dev, ino_t ino, const char *mapped)
{
	size_t len = strlen(mapped);

	if (len > 10 && strcmp(mapped + len - 10, " (deleted)") == 0)
		len -= 10;
	for (size_t i = 0; i < us->files.n; i++) {
		const struct ufile *f = &us->files.v[i];
		if (f->dev == dev && f->ino == ino && strlen(f->path) == len &&
		    strncmp(f->path, mapped, len) == 0)
			return (long)i;
	}
	struct ufile f = { .dev = dev, .ino = ino, .path = strndup(mapped, len), .fd = -1 };
	if (f.path == NULL)
		return -1;
	const char *slash = strrchr(f.path, '/');
	f.name = strdup(slash != NULL ? slash + 1 : f.path);
	if (f.name == NULL || dt_vec_push(&us->files, f) < 0) {
		free(f.path);
		free(f.name);
		return -1;
	}
	return (long)us->files.n - 1;
}

/*
 * Open the file a mapping of a tracked process comes from, while the
 * process lives: by its path if that is still the mapped file, else
 * through /proc/PID/map_files.  Its symbols can then be read after the
 * process exited or the file was replaced or removed.
 */
static void hold_file(struct ufile *f, const char *alt)
{
	struct stat st;

	if (f->fd >= 0)
		return;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != f->dev || st.st_ino != f->ino)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		fd = open(alt, O_RDONLY | O_CLOEXEC);
	f->fd = fd;
}

static int add_map(struct dt_usyms *us, struct uproc *p, char *line)
{
	uint64_t start, end, off, ino;
	unsigned maj, min;
	char perms[8];
	int pos = 0;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &start,
		   &end, perms, &off, &maj, &min, &ino, &pos) < 7 || pos == 0)
		return 0;
	const char *path = line + pos;
	if (ino == 0 || path[0] != '/')
		return 0;	/* anonymous memory, [stack], [vdso] ...: no symbols */
	long fi = file_index(us, makedev(maj, min), (ino_t)ino, path);
	if (fi < 0)
		return -ENOMEM;
	char alt[96];
	snprintf(alt, sizeof(alt), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)p->pid, start,
		 end);
	struct umap m = { .start = start, .end = end, .off = off, .file = (size_t)fi,
			  .alt = strdup(alt) };
	if (m.alt == NULL || dt_vec_push(&p->maps, m) < 0) {
		free(m.alt);
		return -ENOMEM;
	}
	if (p->hold && strchr(perms, 'x') != NULL)
		hold_file(&us->files.v[fi], alt);
	return 0;
}

/* (Re)read the mappings; on failure the old ones stay. */
static int read_maps(struct dt_usyms *us, struct uproc *p)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->pid);
	char *text = dt_read_file(path, NULL);
	if (text == NULL)
		return errno == ENOENT ? -ESRCH : -errno;
	if (text[0] == '\0') {
		free(text);
		return -ESRCH;	/* a zombie: its mappings are gone */
	}
	struct umap *old = p->maps.v;
	size_t nold = p->maps.n;
	p->maps.v = NULL;
	p->maps.n = p->maps.cap = 0;
	int rc = 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l != NULL && rc == 0;
	     l = strtok_r(NULL, "\n", &save))
		rc = add_map(us, p, l);
	free(text);
	int rc2 = keep_gone(p, old, nold);
	p->read_ns = now_ns();
	/* The program it runs now, named as its mappings name files. */
	char exe[4096];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *e = strdup(exe);
		if (e != NULL) {
			free(p->exe);
			p->exe = e;
		}
	}
	return rc < 0 ? rc : rc2;
}

static struct uproc *find_proc(struct dt_usyms *us, pid_t pid)
{
	for (size_t i = 0; i < us->procs.n; i++)
		if (us->procs.v[i]->pid == pid)
			return us->procs.v[i];
	return NULL;
}

/* The process, read now if it is new; NULL if gone before it was read. */
static struct uproc *get_proc(struct dt_usyms *us, pid_t pid, bool hold, int *err)
{
	struct uproc *p = find_proc(us, pid);

	*err = 0;
	if (p != NULL)
		return p;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	p->pid = pid;
	p->hold = hold;
	if ((*err = read_maps(us, p)) < 0 || dt_vec_push(&us->procs, p) < 0) {
		*err = *err < 0 ? *err : -ENOMEM;
		free_proc(p);
		return NULL;
	}
	return p;
}

int dt_usyms_refresh(struct dt_usyms *us, pid_t pid, unsigned min_ms, bool hold)
{
	int err;
	struct uproc *p = find_proc(us, pid);

	if (p == NULL)
		return get_proc(us, pid, hold, &err) != NULL ? 0 : err;
	if (now_ns() - p->read_ns < (uint64_t)min_ms * 1000000ULL)
		return 0;
	p->hold |= hold;
	return read_maps(us, p);
}

static const struct umap *find_map(const struct uproc *p, uint64_t addr)
{
	for (size_t i = 0; i < p->maps.n; i++)
		if (addr >= p->maps.v[i].start && addr < p->maps.v[i].end)
			return &p->maps.v[i];
	return NULL;
}

/*
 * The file's symbols: from the file held open, else from its path if it
 * is still that file, else through the process.
 */
static struct dt_elf *file_elf(struct ufile *f, const struct umap *m)
{
	char err[256], held[64];
	struct stat st;

	if (f->tried)
		return f->elf;
	f->tried = true;
	const char *from = f->path;
	if (f->fd >= 0) {
		snprintf(held, sizeof(held), "/proc/self/fd/%d", f->fd);
		from = held;
		if (dt_elf_load(held, &f->elf, err, sizeof(err)) < 0)
			f->elf = NULL;
	} else if (stat(f->path, &st) < 0 || st.st_dev != f->dev || st.st_ino != f->ino ||
		   dt_elf_load(f->path, &f->elf, err, sizeof(err)) < 0) {
		from = m->alt;
		if (dt_elf_load(m->alt, &f->elf, err, sizeof(err)) < 0)
			f->elf = NULL;
	}
	char dbg[512];
	if (f->elf != NULL && dt_debuginfo_path(from, "/usr/lib/debug", dbg, sizeof(dbg)) &&
	    dt_elf_load(dbg, &f->dbg, err, sizeof(err)) < 0)
		f->dbg = NULL;
	return f->elf;
}

/* The link-time address of a run-time one in mapping m. */
static bool link_addr(const struct dt_elf *e, const struct umap *m, uint64_t addr, uint64_t *out)
{
	uint64_t foff = addr - m->start + m->off;
	const struct dt_elf_seg *s = dt_elf_seg_at_offset(e, foff);

	if (s == NULL)
		return false;
	*out = s->vaddr + (foff - s->offset);
	return true;
}

static bool same_file(const struct dt_usyms *us, size_t a, size_t b)
{
	return a == b || (us->files.v[a].dev == us->files.v[b].dev &&
			  us->files.v[a].ino == us->files.v[b].ino);
}

/*
 * The mapping that held addr when it was recorded: the one now there, or
 * one gone since.  If two of them would give it different meanings (a
 * program before and after its exec, both with something there), it
 * cannot be told which was meant: none (the address prints as a number).
 */
static const struct umap *which_map(const struct dt_usyms *us, const struct uproc *p,
				    uint64_t addr, bool *gone)
{
	const struct umap *m = find_map(p, addr);

	*gone = false;
	for (size_t i = 0; i < p->gone.n; i++) {
		const struct umap *g = &p->gone.v[i];
		if (addr < g->start || addr >= g->end)
			continue;
		if (m == NULL) {
			m = g;
			*gone = true;
		} else if (!same_file(us, m->file, g->file) ||
			   addr - m->start + m->off != addr - g->start + g->off) {
			return NULL;
		}
	}
	return m;
}

/* Where the object that mapping m belongs to starts: its lowest mapping among those in v. */
static uint64_t obj_base(const struct umap *v, size_t n, const struct umap *m)
{
	uint64_t base = m->start;

	for (size_t i = 0; i < n; i++)
		if (v[i].file == m->file && v[i].start < base && v[i].start + m->off >= m->start)
			base = v[i].start;
	return base;
}

int dt_usyms_lookup(struct dt_usyms *us, pid_t pid, uint64_t addr, struct dt_usym *sym)
{
	int err;
	struct uproc *p = get_proc(us, pid, false, &err);
	bool gone;

	memset(sym, 0, sizeof(*sym));
	if (p == NULL)
		return err;
	const struct umap *m = which_map(us, p, addr, &gone);
	/* Not mapped when last read: mapped since? (At most every 10 ms.) */
	if (m == NULL && find_map(p, addr) == NULL && now_ns() - p->read_ns > 10000000ULL &&
	    read_maps(us, p) == 0)
		m = which_map(us, p, addr, &gone);
	if (m == NULL)
		return 0;
	struct ufile *f = &us->files.v[m->file];
	sym->obj = f->name;
	sym->path = f->path;
	sym->map_start = m->start;
	sym->map_end = m->end;
	sym->map_off = m->off;
	sym->exe = !gone && p->exe != NULL && strcmp(p->exe, f->path) == 0;
	sym->obj_base = gone ? obj_base(p->gone.v, p->gone.n, m) : obj_base(p->maps.v, p->maps.n, m);
	struct dt_elf *e = file_elf(f, m);
	uint64_t la;
	if (e == NULL || !link_addr(e, m, addr, &la))
		return 0;
	/* The debug file knows the local functions a stripped object lost. */
	const struct dt_elf_sym *s = f->dbg != NULL ? dt_elf_func_at(f->dbg, la) : NULL;
	if (s == NULL)
		s = dt_elf_func_at(e, la);
	if (s != NULL) {
		sym->func = s->name;
		sym->start = addr - (la - s->addr);
	}
	return 0;
}
