/*
 * The machinery the network providers share (net.h): listing, the choice
 * of a probe's site on this kernel, one BPF program per probe (its id is
 * an immediate on raw tracepoints, which carry no cookie on every kernel;
 * the attach cookie on kprobes), attachment.
 */
#include "providers/net.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "compiler/pcb.h"
#include "providers/attach.h"
#include "providers/fbt.h"
#include "providers/tracefs.h"

static bool event_listed(const char *event)
{
	const char *base = dt_tracefs();
	char path[512];
	struct stat st;

	if (base == NULL)
		return false;
	/* Every network tracepoint is in one of these groups. */
	static const char *const groups[] = { "net", "sock", "tcp", "udp" };
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s", base, groups[i], event);
		if (stat(path, &st) == 0)
			return true;
	}
	return false;
}

/* A probe is listed where one of its sites may be: a tracepoint the kernel lists, or kprobes. */
int net_populate(struct dt_registry *reg, const struct dt_provider *prov,
		 const struct net_probe *probes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool ok = false;
		for (int s = 0; s < 3 && probes[i].sites[s] != NULL && !ok; s++) {
			const struct net_site *site = probes[i].sites[s];
			ok = site->kind == NET_KPROBE || event_listed(site->event);
		}
		if (ok && dt_probe_add(reg, prov, "vmlinux", "", probes[i].name, 0, &probes[i]) == NULL)
			return -ENOMEM;
	}
	return 0;
}

const char *net_mech_class(const struct dt_probe *prp)
{
	return prp->desc[3];
}

bool net_arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		  const char **xlate)
{
	const struct net_probe *np = prp->priv;

	(void)reg;
	if (i < 0 || i >= 6 || np->args[i].native == NULL)
		return false;
	*native = np->args[i].native;
	*xlate = np->args[i].xlate;
	return true;
}

int net_arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct net_probe *np = prp->priv;
	int n = 0;

	(void)reg;
	while (n < 6 && np->args[n].native != NULL)
		n++;
	return n;
}

const char *net_unavailable(struct dt_registry *reg)
{
	(void)reg;
	return dt_tracefs_problem();
}

/* Whether the raw tracepoint's TP_PROTO, in this kernel's BTF, takes what the site reads. */
static bool proto_is(struct dt_registry *reg, const struct net_site *s)
{
	struct btf *btf = dt_kernel_btf(&reg->core->types);
	char name[128];
	int want = 0;

	if (btf == NULL)
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", s->event);
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	if (t != NULL)
		t = btf__type_by_id(btf, t->type);
	if (t != NULL && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (t == NULL || !btf_is_func_proto(t))
		return false;
	while (want < 4 && s->params[want] != NULL)
		want++;
	/* The first parameter is the tracepoint's data; then exactly the site's. */
	if (btf_vlen(t) - 1 != want)
		return false;
	const struct btf_param *p = btf_params(t);
	for (int i = 0; i < want; i++) {
		struct dt_type *pt = dt_type_from_btf(&reg->core->types, btf, p[i + 1].type);
		if (pt == NULL || strcmp(dt_type_str(&reg->core->types, pt), s->params[i]) != 0)
			return false;
	}
	return true;
}

/* The site the probe fires on here: the first raw tracepoint that fits, else kprobes. */
static const struct net_site *site_of(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct net_probe *np = prp->priv;

	for (int s = 0; s < 3 && np->sites[s] != NULL; s++) {
		const struct net_site *site = np->sites[s];
		if (site->kind == NET_KPROBE || proto_is(reg, site))
			return site;
	}
	return NULL;
}

/* ---- Programs ---- */

/*
 * The helpers that follow stacked devices' sends (net_xmit.c) are built
 * by the first group whose prologue needs them, and attached by it: its
 * priv is XMIT_OWNER from its prologue until fill_maps, then the loaded
 * object, where attach finds them.
 */
static const char xmit_owner;
#define XMIT_OWNER ((void *)&xmit_owner)

/* Arguments the probe does not give are 0 (the translators read some a clause may not name). */
static void zero_args(struct dt_cg *cg, int dctx, uint32_t args)
{
	(void)args;
	for (int i = 0; i < 10; i++)
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)NET_ARG(dctx, i), 0));
}

/* The context's slots the prologue used as temporaries are 0 again for the clauses. */
static void clear_tmp(struct dt_cg *cg, int dctx)
{
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)NET_TMP(dctx), 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)NET_TMP2(dctx), 0));
}

static void raw_prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct net_site *site = site_of(cg->cc->reg, prp);

	if (site == NULL || site->kind != NET_RAW)
		dt_cerror(cg->pcb, NULL, 0, "probe %s:::%s cannot be enabled on this kernel",
			  prp->desc[0], prp->desc[3]);
	bool xmit_built = net_xmit_built(cg->cc->obj);
	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)(dctx + DCTX_PRID), (int32_t)prp->id));
	zero_args(cg, dctx, args);
	site->prologue(cg, dctx, args, skip);
	clear_tmp(cg, dctx);
	if (!xmit_built && net_xmit_built(cg->cc->obj))
		g->priv = XMIT_OWNER;
}

/* The cookie: the probe id, and the index of the function that fired above it. */
static void kprobe_prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args,
			    int skip)
{
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, (int16_t)(dctx + DCTX_PRID)));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R9, 32));
	zero_args(cg, dctx, args);
	site_of(cg->cc->reg, g->probes.v[0])->prologue(cg, dctx, args, skip);
	clear_tmp(cg, dctx);
}

static int raw_fill_maps(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj)
{
	(void)reg;
	if (g->priv == XMIT_OWNER)
		g->priv = obj;
	return 0;
}

static int raw_attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct net_site *site = site_of(reg, prp);
	int rc;

	if (g->priv != NULL && g->priv != XMIT_OWNER &&
	    (rc = net_xmit_attach(reg, g, g->priv)) < 0)
		return rc;
	return dt_group_link(reg, g, bpf_program__attach_raw_tracepoint(g->prog, site->event),
			     "failed to attach %s:::%s to raw tracepoint %s", prp->desc[0],
			     prp->desc[3], site->event);
}

static int raw_add_maps(struct dt_registry *reg, struct dt_group *g, struct bo_object *obj)
{
	const struct net_site *site = site_of(reg, g->probes.v[0]);

	return site != NULL && site->xmit ? net_xmit_add_maps(reg, obj) : 0;
}

static int kprobe_attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct net_site *site = site_of(reg, prp);

	for (int f = 0; f < 6 && site->funcs[f] != NULL; f++) {
		LIBBPF_OPTS(bpf_kprobe_opts, o, .bpf_cookie = ((uint64_t)f << 32) | prp->id);
		struct bpf_link *l = bpf_program__attach_kprobe_opts(g->prog, site->funcs[f], &o);
		int rc = dt_group_link(reg, g, l, "failed to attach %s:::%s to a kprobe on %s",
				       prp->desc[0], prp->desc[3], site->funcs[f]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct dt_mech mech_raw = {
	.name = "net-raw-tracepoint",
	.section = "raw_tp",
	.gated = true,
	.cg_prologue = raw_prologue,
	.attach = raw_attach,
	.add_maps = raw_add_maps,
	.fill_maps = raw_fill_maps,
};

static const struct dt_mech mech_kprobe = {
	.name = "net-kprobe",
	.section = "kprobe",
	.gated = true,
	.cg_prologue = kprobe_prologue,
	.attach = kprobe_attach,
};

/* "f1, f2 and f3" */
static const char *func_list(struct dt_registry *reg, const struct net_site *s)
{
	const char *list = "";
	int n = 0;

	while (n < 6 && s->funcs[n] != NULL)
		n++;
	for (int i = 0; i < n; i++)
		list = dt_arena_printf(&reg->core->arena, "%s%s%s", list,
				       i == 0 ? "" : i == n - 1 ? " and " : ", ", s->funcs[i]);
	return list;
}

const char *net_probe_unavailable(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct net_probe *np = prp->priv;
	const struct net_site *site = site_of(reg, prp);

	if (site == NULL)
		return dt_arena_printf(&reg->core->arena, "the raw tracepoint %s of this kernel does not "
				       "take what the probe reads", np->sites[0]->event);
	if (site->kind == NET_RAW)
		return NULL;
	struct dt_fbt *fbt = dt_fbt_state(reg);
	if (fbt == NULL)
		return "out of memory";
	if (dt_fbt_feature(reg, fbt, FBT_KPROBE, NULL))
		return NULL;
	return dt_arena_printf(&reg->core->arena, "no tracepoint of this kernel fires where it does; it "
			       "needs kprobes on %s, which this kernel does not offer: %s",
			       func_list(reg, site), fbt->feat[FBT_KPROBE].why);
}

const struct dt_mech *net_choose(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];
	const char *why = net_probe_unavailable(reg, prp);

	if (why != NULL) {
		dt_set_error(reg->core, -ENOTSUP, "cannot enable %s:::%s: %s", prp->desc[0], prp->desc[3],
			     why);
		return NULL;
	}
	return site_of(reg, prp)->kind == NET_RAW ? &mech_raw : &mech_kprobe;
}
