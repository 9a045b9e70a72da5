/*
 * What the running kernel offers fbt, found by trying, never by version:
 *   fentry/fexit  load a tiny BPF_TRACE_FENTRY program for a kernel
 *                 function and attach it (this needs BPF trampolines and
 *                 ftrace direct calls), then drop it;
 *   kprobe_multi  the attach type must be in the kernel's BTF, and a link
 *                 request with no addresses must be refused as invalid,
 *                 not as unsupported (kernels without fprobe say EOPNOTSUPP);
 *   kprobe        the kprobe perf PMU must exist (libbpf would otherwise
 *                 fall back to writing kprobe_events in tracefs, which a
 *                 killed dtrace would leave behind) and kprobe programs load.
 * Each answer is kept in the handle; a "why" names what is missing.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/core.h"
#include "base/insn.h"
#include "base/probe.h"
#include "providers/fbt.h"

#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"
#define ENOTSUPP_KERNEL 524	/* the kernel's internal "not supported" */

static const char *errstr(int err)
{
	if (err == ENOTSUPP_KERNEL)
		return "not supported by this kernel (ENOTSUPP)";
	return strerror(err);
}

/* The two-instruction program every probe loads: return 0. */
static int load_tiny(enum bpf_prog_type type, const struct bpf_prog_load_opts *o)
{
	struct bpf_insn insns[] = { I_MOV64_IMM(BPF_R0, 0), I_EXIT() };

	return bpf_prog_load(type, "dt_fbt_probe", "GPL", insns, ARRAY_SIZE(insns), o);
}

/* A vmlinux function to try fentry on: the sample, or a common one. */
static const struct fbt_func *fentry_target(struct dt_fbt *fbt, const struct fbt_func *sample)
{
	static const char *const common[] = { "vfs_read", "vfs_write", "schedule" };

	if (sample != NULL && sample->fentry_ok && strcmp(sample->mod->name, "vmlinux") == 0)
		return sample;
	for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
		const struct fbt_func *f = dt_fbt_func(fbt, "vmlinux", common[i]);
		if (f != NULL && f->fentry_ok)
			return f;
	}
	return NULL;
}

static const char *probe_fentry(struct dt_fbt *fbt, const struct fbt_func *sample)
{
	const struct fbt_func *f = fentry_target(fbt, sample);

	if (f == NULL)
		return "no vmlinux function to try a BPF_TRACE_FENTRY program on";
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = f->btf_id);
	int fd = load_tiny(BPF_PROG_TYPE_TRACING, &o);
	if (fd < 0)
		return dt_arena_printf(&fbt->arena,
				       "loading a BPF_TRACE_FENTRY program failed: %s",
				       errstr(errno));
	int lfd = bpf_raw_tracepoint_open(NULL, fd);
	int err = errno;
	close(fd);
	if (lfd < 0)
		return dt_arena_printf(&fbt->arena,
				       "attaching a BPF_TRACE_FENTRY program to %s failed: %s",
				       f->name, errstr(err));
	close(lfd);
	return NULL;
}

static bool enum_has(const struct btf *btf, const char *type, const char *name)
{
	int id = btf ? btf__find_by_name_kind(btf, type, BTF_KIND_ENUM) : -1;

	if (id <= 0)
		return false;
	const struct btf_type *t = btf__type_by_id(btf, (uint32_t)id);
	const struct btf_enum *e = btf_enum(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (strcmp(btf__name_by_offset(btf, e[i].name_off), name) == 0)
			return true;
	return false;
}

static const char *probe_kprobe_multi(struct dt_registry *reg, struct dt_fbt *fbt)
{
	if (!enum_has(dt_kernel_btf(&reg->core->types), "bpf_attach_type", "BPF_TRACE_KPROBE_MULTI"))
		return "the kernel has no BPF_TRACE_KPROBE_MULTI attach type";
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
	int fd = load_tiny(BPF_PROG_TYPE_KPROBE, &o);
	if (fd < 0)
		return dt_arena_printf(&fbt->arena,
				       "loading a BPF_TRACE_KPROBE_MULTI program failed: %s",
				       errstr(errno));
	unsigned long addr = 0;
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	lo.kprobe_multi.addrs = &addr;
	lo.kprobe_multi.cnt = 0;
	int lfd = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	int err = errno;
	close(fd);
	if (lfd >= 0) {
		close(lfd);
		return NULL;
	}
	if (err == EOPNOTSUPP || err == ENOTSUPP_KERNEL)
		return "the kernel does not support kprobe_multi links (built without fprobe)";
	if (err == EPERM || err == EACCES)
		return dt_arena_printf(&fbt->arena, "creating a kprobe_multi link failed: %s",
				       strerror(err));
	return NULL;	/* EINVAL: the empty request was understood and refused */
}

static const char *probe_kprobe(struct dt_fbt *fbt)
{
	if (access(KPROBE_PMU, R_OK) != 0)
		return "the kernel has no kprobe perf PMU (" KPROBE_PMU ")";
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	int fd = load_tiny(BPF_PROG_TYPE_KPROBE, &o);
	if (fd < 0)
		return dt_arena_printf(&fbt->arena, "loading a BPF_PROG_TYPE_KPROBE program failed: %s",
				       errstr(errno));
	close(fd);
	return NULL;
}

bool dt_fbt_refused(int err)
{
	return err == EINVAL || err == ENOENT || err == ESRCH || err == EBUSY ||
	       err == EADDRNOTAVAIL || err == EILSEQ || err == ENOTSUPP_KERNEL;
}

bool dt_fbt_feature(struct dt_registry *reg, struct dt_fbt *fbt, enum fbt_kind kind,
		    const struct fbt_func *sample)
{
	struct fbt_feature *ft = &fbt->feat[kind];

	if (ft->probed)
		return ft->ok;
	ft->probed = true;
	switch (kind) {
	case FBT_FENTRY:
		ft->why = probe_fentry(fbt, sample);
		break;
	case FBT_KPROBE_MULTI:
		ft->why = probe_kprobe_multi(reg, fbt);
		break;
	default:
		ft->why = probe_kprobe(fbt);
		break;
	}
	ft->ok = ft->why == NULL;
	return ft->ok;
}
