/*
 * Attaching uprobe programs.  With uprobe_multi links (Linux 6.6), one
 * link per file and process holds every place of a group: detaching it
 * waits for one grace period, where a perf event per place waits for one
 * each (about 0.1 s: a thousand probes would take minutes to remove).
 * libbpf 1.1 has no API for these links, so they are made with the bpf
 * system call.  Without them, one perf event link per place.
 *
 * A place the kernel refuses to instrument (an instruction uprobes cannot
 * single-step) is left out, unless every place of the group is refused.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/core.h"
#include "base/insn.h"
#include "base/probe.h"
#include "base/provider.h"
#include "providers/attach.h"
#include "providers/uprobe.h"
#include "providers/uproc.h"

#define ATTACH_UPROBE_MULTI 48		/* BPF_TRACE_UPROBE_MULTI */
#define UPROBE_MULTI_RETURN 1u		/* BPF_F_UPROBE_MULTI_RETURN */
#define CMD_LINK_CREATE 28		/* BPF_LINK_CREATE */
#define ENOTSUPP_KERNEL 524		/* the kernel's ENOTSUPP */

/* union bpf_attr's link_create for uprobe_multi (the system headers predate it). */
struct link_create_umulti {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t umulti_flags;
	uint32_t pid;
	uint32_t pad;
};

static int link_create(int prog_fd, const char *path, pid_t pid, bool ret, size_t n,
		       const uint64_t *offs, const uint64_t *refs, const uint64_t *cookies)
{
	union {
		struct link_create_umulti lc;
		char bytes[64];
	} attr;

	memset(&attr, 0, sizeof(attr));
	attr.lc.prog_fd = (uint32_t)prog_fd;
	attr.lc.attach_type = ATTACH_UPROBE_MULTI;
	attr.lc.path = (uint64_t)(uintptr_t)path;
	attr.lc.offsets = (uint64_t)(uintptr_t)offs;
	attr.lc.ref_ctr_offsets = (uint64_t)(uintptr_t)refs;
	attr.lc.cookies = (uint64_t)(uintptr_t)cookies;
	attr.lc.cnt = (uint32_t)n;
	attr.lc.umulti_flags = ret ? UPROBE_MULTI_RETURN : 0;
	attr.lc.pid = (uint32_t)pid;
	return (int)syscall(__NR_bpf, CMD_LINK_CREATE, &attr, sizeof(attr));
}

bool dt_uprobe_have_multi(struct dt_registry *reg)
{
	struct dt_uprocs *c = dt_uprocs(reg);

	if (c == NULL)
		return false;
	if (c->multi >= 0)
		return c->multi;
	/* For tests of the other path. */
	if (getenv("DTRACE_NO_UPROBE_MULTI") != NULL) {
		c->multi = 0;
		return false;
	}
	/* A directory as the file: EBADF if the kernel knows the link type. */
	struct bpf_insn insns[] = { I_MOV64_IMM(BPF_R0, 0), I_EXIT() };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = ATTACH_UPROBE_MULTI);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_probe_umulti", "GPL", insns, 2, &opts);
	c->multi = 0;
	if (fd >= 0) {
		uint64_t off = 0;
		int lfd = link_create(fd, "/", 0, false, 1, &off, NULL, NULL);
		if (lfd >= 0)
			close(lfd);
		c->multi = lfd >= 0 || errno == EBADF;
		close(fd);
	}
	return c->multi;
}

int dt_uprobe_prepare(struct dt_registry *reg, struct dt_group *g, struct bpf_program *prog)
{
	(void)g;
	if (bpf_program__set_expected_attach_type(prog, ATTACH_UPROBE_MULTI) < 0)
		return dt_set_error(reg->core, -EINVAL, "cannot make a uprobe_multi program");
	return 0;
}

void dt_uprobe_detach(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	for (size_t i = 0; i < g->fds.n; i++)
		close(g->fds.v[i]);
	g->fds.n = 0;
}

/* One place to attach. */
struct place {
	const struct dt_probe *prp;
	const struct dt_usite *site;
	uint64_t cookie;
};

struct attach_ctx {
	struct dt_registry *reg;
	struct dt_group *g;
	bool ret;
	size_t attached, refused;
	int first_err;
	const struct place *first_refused;
};

/* Errors that say this place cannot be probed, not that nothing can. */
static bool refusal(int err)
{
	return err == ENOTSUPP_KERNEL || err == EINVAL || err == EOPNOTSUPP || err == ENOEXEC ||
	       err == EILSEQ;
}

static int fail(struct attach_ctx *c, const struct place *p, int err)
{
	const struct dt_uprobe *up = p->prp->priv;
	char name[512];

	dt_probe_fullname(p->prp, name, sizeof(name));
	if (err == ESRCH)
		return dt_set_error(c->reg->core, -err, "failed to enable '%s': process %d has exited", name,
				    (int)up->pid);
	return dt_set_error(c->reg->core, -err, "failed to enable '%s': uprobe at %s+0x%llx: %s", name,
			    up->obj->path, (unsigned long long)p->site->off,
			    strerror(err == ENOTSUPP_KERNEL ? EOPNOTSUPP : err));
}

static void refused(struct attach_ctx *c, const struct place *p, int err)
{
	if (c->refused++ == 0) {
		c->first_err = err;
		c->first_refused = p;
	}
}

static int attach_perf(struct attach_ctx *c, const struct place *p)
{
	const struct dt_uprobe *up = p->prp->priv;
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .retprobe = c->ret, .bpf_cookie = p->cookie,
		    .ref_ctr_offset = p->site->ref_ctr);
	struct bpf_link *l = bpf_program__attach_uprobe_opts(c->g->prog, up->pid, up->obj->file,
							     p->site->off, &opts);

	if (l == NULL) {
		int err = errno;
		if (!refusal(err))
			return fail(c, p, err);
		refused(c, p, err);
		return 0;
	}
	int rc = dt_group_link(c->reg, c->g, l, "uprobe");
	if (rc == 0)
		c->attached++;
	return rc;
}

/* Places [0, n) of one file and process; halves again when the kernel refuses. */
static int attach_multi(struct attach_ctx *c, const struct place *p, size_t n)
{
	const struct dt_uprobe *up = p->prp->priv;
	uint64_t *a = calloc(3 * n, sizeof(*a));
	bool refs = false;

	if (a == NULL)
		return dt_set_error(c->reg->core, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		a[i] = p[i].site->off;
		a[n + i] = p[i].site->ref_ctr;
		a[2 * n + i] = p[i].cookie;
		refs |= p[i].site->ref_ctr != 0;
	}
	int fd = link_create(bpf_program__fd(c->g->prog), up->obj->file, up->pid, c->ret, n, a,
			     refs ? a + n : NULL, a + 2 * n);
	int err = errno;
	free(a);
	if (fd >= 0) {
		if (dt_vec_push(&c->g->fds, fd) < 0) {
			close(fd);
			return dt_set_error(c->reg->core, -ENOMEM, "out of memory");
		}
		c->attached += n;
		return 0;
	}
	if (!refusal(err))
		return fail(c, p, err);
	if (n == 1) {
		refused(c, p, err);
		return 0;
	}
	int rc = attach_multi(c, p, n / 2);
	return rc < 0 ? rc : attach_multi(c, p + n / 2, n - n / 2);
}

static int cmp_place(const void *x, const void *y)
{
	const struct place *a = x, *b = y;
	const struct dt_uprobe *ua = a->prp->priv, *ub = b->prp->priv;

	if (ua->pid != ub->pid)
		return ua->pid < ub->pid ? -1 : 1;
	int c = strcmp(ua->obj->file, ub->obj->file);
	if (c != 0)
		return c;
	return a->site->off < b->site->off ? -1 : a->site->off > b->site->off;
}

static bool same_target(const struct place *a, const struct place *b)
{
	const struct dt_uprobe *ua = a->prp->priv, *ub = b->prp->priv;

	return ua->pid == ub->pid && strcmp(ua->obj->file, ub->obj->file) == 0;
}

int dt_uprobe_attach(struct dt_registry *reg, struct dt_group *g)
{
	struct attach_ctx c = { .reg = reg, .g = g, .ret = dt_uprobe_is_return(g) };
	DT_VEC(struct place) places = { 0 };
	int rc = 0;

	for (size_t i = 0; i < g->probes.n; i++) {
		const struct dt_probe *prp = g->probes.v[i];
		const struct dt_uprobe *up = prp->priv;
		for (const struct dt_usite *s = up->sites; s != NULL; s = s->next) {
			uint64_t cookie = ((uint64_t)s->cls << 32) | prp->id;
			struct place p = { prp, s, cookie | (s->entry ? DT_UPROBE_COOKIE_ENTRY : 0) };
			if (dt_vec_push(&places, p) < 0) {
				dt_vec_free(&places);
				return dt_set_error(reg->core, -ENOMEM, "out of memory");
			}
		}
	}
	if (g->mech->prepare != NULL) {
		qsort(places.v, places.n, sizeof(*places.v), cmp_place);
		for (size_t i = 0; i < places.n && rc == 0;) {
			size_t j = i + 1;
			while (j < places.n && same_target(&places.v[i], &places.v[j]))
				j++;
			rc = attach_multi(&c, &places.v[i], j - i);
			i = j;
		}
	} else {
		for (size_t i = 0; i < places.n && rc == 0; i++)
			rc = attach_perf(&c, &places.v[i]);
	}
	if (rc == 0 && c.attached == 0 && c.refused > 0) {
		struct place p = *c.first_refused;
		rc = fail(&c, &p, c.first_err);
	}
	dt_vec_free(&places);
	return rc;
}
