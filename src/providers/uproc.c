/* Processes and their mapped objects, from /proc/PID/maps. */
#include "providers/uproc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/proc.h"
#include "providers/elf_syms.h"

static void uproc_free(struct dt_uproc *up)
{
	if (up == NULL)
		return;
	for (size_t i = 0; i < up->objs.n; i++) {
		struct dt_uobj *o = &up->objs.v[i];
		free(o->path);
		free(o->file);
		dt_elf_free(o->elf);
		if (o->fd >= 0)
			close(o->fd);
	}
	dt_vec_free(&up->objs);
	free(up);
}

void dt_uprocs_free(struct dt_registry *reg)
{
	struct dt_uprocs *c = reg->uprocs;

	if (c == NULL)
		return;
	for (size_t i = 0; i < c->v.n; i++)
		uproc_free(c->v.v[i]);
	dt_vec_free(&c->v);
	free(c);
	reg->uprocs = NULL;
}

struct mapline {
	uint64_t start, end, off, ino;
	unsigned maj, min;
	char perms[8];
	const char *path;
};

static bool parse_line(char *line, struct mapline *m)
{
	int pos = 0;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->start,
		   &m->end, m->perms, &m->off, &m->maj, &m->min, &m->ino, &pos) < 7 || pos == 0)
		return false;
	m->path = line + pos;
	return true;
}

static int add_obj(struct dt_uproc *up, const struct mapline *m, dev_t exe_dev, ino_t exe_ino)
{
	struct dt_uobj o;
	struct stat st;
	char buf[128];

	memset(&o, 0, sizeof(o));
	o.fd = -1;
	o.path = strdup(m->path);
	if (o.path == NULL)
		return -ENOMEM;
	/* A replaced or deleted file is still reachable through map_files. */
	dev_t dev = makedev(m->maj, m->min);
	if (stat(o.path, &st) == 0 && st.st_ino == m->ino && st.st_dev == dev) {
		o.file = strdup(o.path);
	} else {
		snprintf(buf, sizeof(buf), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)up->pid,
			 m->start, m->end);
		o.file = strdup(buf);
	}
	if (o.file == NULL) {
		free(o.path);
		return -ENOMEM;
	}
	char *del = strstr(o.path, " (deleted)");
	if (del != NULL && del[10] == '\0')
		*del = '\0';
	const char *slash = strrchr(o.path, '/');
	o.name = slash ? slash + 1 : o.path;
	o.is_exec = m->ino == exe_ino && dev == exe_dev;
	o.start = m->start;
	o.start_off = m->off;
	if (dt_vec_push(&up->objs, o) < 0) {
		free(o.path);
		free(o.file);
		return -ENOMEM;
	}
	return 0;
}

static int read_maps(struct dt_registry *reg, struct dt_uproc *up)
{
	char path[64];
	struct stat exe;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)up->pid);
	if (stat(path, &exe) < 0)
		memset(&exe, 0, sizeof(exe));
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)up->pid);
	char *text = dt_read_file(path, NULL);
	if (text == NULL) {
		int err = errno == ENOENT ? ESRCH : errno;
		return dt_set_error(reg->core, -err, "failed to read the mappings of process %d: %s",
				    (int)up->pid, strerror(err));
	}
	int rc = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		struct mapline m;
		if (!parse_line(line, &m) || m.ino == 0 || m.path[0] != '/')
			continue;
		/* One object per file: its mappings follow one another. */
		bool seen = false;
		for (size_t i = 0; i < up->objs.n && !seen; i++) {
			const char *p = up->objs.v[i].path;
			size_t n = strlen(p);
			seen = strncmp(p, m.path, n) == 0 &&
			       (m.path[n] == '\0' || strcmp(m.path + n, " (deleted)") == 0);
		}
		if (!seen)
			rc = add_obj(up, &m, exe.st_dev, exe.st_ino);
	}
	free(text);
	return rc < 0 ? dt_set_error(reg->core, rc, "out of memory") : 0;
}

struct dt_uprocs *dt_uprocs(struct dt_registry *reg)
{
	if (reg->uprocs == NULL) {
		reg->uprocs = calloc(1, sizeof(*reg->uprocs));
		if (reg->uprocs != NULL)
			reg->uprocs->multi = -1;
	}
	return reg->uprocs;
}

int dt_uproc_get(struct dt_registry *reg, pid_t pid, struct dt_uproc **upp)
{
	struct dt_uprocs *c = dt_uprocs(reg);

	*upp = NULL;
	if (c == NULL)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	for (size_t i = 0; i < c->v.n; i++) {
		if (c->v.v[i]->pid == pid) {
			*upp = c->v.v[i];
			return 0;
		}
	}
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return dt_set_error(reg->core, -ESRCH, "failed to grab process %d", (int)pid);
	int rc = dt_proc_run_to_entry(reg->procs, pid);
	if (rc < 0)
		return rc;
	struct dt_uproc *up = calloc(1, sizeof(*up));
	if (up == NULL)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	up->pid = pid;
	if ((rc = read_maps(reg, up)) < 0 || (rc = dt_vec_push(&c->v, up)) < 0) {
		uproc_free(up);
		return rc == -ENOMEM ? dt_set_error(reg->core, rc, "out of memory") : rc;
	}
	*upp = up;
	return 0;
}

struct dt_elf *dt_uobj_elf(struct dt_uobj *o)
{
	char err[256];

	if (o->elf == NULL && !o->elf_failed && dt_elf_load(o->file, &o->elf, err, sizeof(err)) < 0)
		o->elf_failed = true;
	return o->elf;
}

bool dt_uobj_read(struct dt_uobj *o, uint64_t off, void *buf, size_t len)
{
	if (o->fd < 0)
		o->fd = open(o->file, O_RDONLY | O_CLOEXEC);
	return o->fd >= 0 && pread(o->fd, buf, len, (off_t)off) == (ssize_t)len;
}

int64_t dt_uobj_bias(struct dt_uobj *o)
{
	struct dt_elf *e = dt_uobj_elf(o);

	if (e == NULL)
		return 0;
	/* The segment the first mapping holds (mapped from a page boundary). */
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct dt_elf_seg *s = &e->segs[i];
		uint64_t page_off = s->offset & ~(uint64_t)0xfff;
		if (page_off == o->start_off)
			return (int64_t)(o->start - (s->vaddr - (s->offset - page_off)));
	}
	return 0;
}

bool dt_uobj_match(const struct dt_uobj *o, const char *pat)
{
	if (pat == NULL || pat[0] == '\0' || dt_gmatch(o->name, pat))
		return true;
	if (strcmp(pat, "a.out") == 0)
		return o->is_exec;
	if (dt_has_glob(pat))
		return false;
	/* "libc.so" and "libc" name libc.so.6, as DTrace's versionless names. */
	size_t n = strlen(pat);
	if (strncmp(o->name, pat, n) != 0)
		return false;
	if (strstr(pat, ".so") != NULL)
		return o->name[n] == '.';
	return strncmp(o->name + n, ".so", 3) == 0;
}
