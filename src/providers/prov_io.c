/*
 * The io provider (the Dynamic Tracing Guide's), made from the kernel's
 * block tracepoints; its arguments are translated from the block layer's
 * struct request (dlib/kernel/io.d):
 *
 *   start   block_rq_issue: a request goes to the device
 *   done    block_rq_complete: the device has finished it
 *           args[0] bufinfo_t *, args[1] devinfo_t * (from the struct
 *           request), args[2] fileinfo_t * (from the inode of the file
 *           whose page cache its first page is in: none for direct I/O,
 *           swap or file system metadata)
 *   wait-start  the entry of submit_bio_wait(), where a thread submits a
 *           bio and waits for it: a BPF trampoline (fentry), as DTrace
 *           for Linux makes it (no tracepoint says which I/O a thread
 *           waits for, nor when the wait ends)
 *   wait-done   its return (fexit), in the same thread
 *           args[0] bufinfo_t *, args[1] devinfo_t * (from the struct bio,
 *           whose iterator the kernel has moved over what was transferred
 *           by the time the wait ends), args[2] fileinfo_t * (none: the
 *           struct file * is NULL, as in DTrace for Linux)
 */
#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/providers.h"
#include "providers/sprov.h"

#define RQ "struct request *"
#define ARGS { { RQ, "bufinfo_t *" }, { RQ, "devinfo_t *" }, { "struct inode *", "fileinfo_t *" } }

#define S_IFMT 0170000
#define S_IFBLK 0060000

/*
 * The file a request is for: the inode whose page cache holds the first
 * page it transfers (bi_io_vec[bi_idx] of its first bio, that page's
 * folio), or none (0): a request without data, anonymous memory (direct
 * I/O from a process's buffer, swap), a block device's own pages (file
 * system metadata, as the Guide says).  R7 is the request.
 */
static void request_file(struct dt_cg *cg, int dctx)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *vec = dt_type_lookup(tt, "struct bio_vec");
	uint32_t iter = sp_member(cg, "struct bio", "bi_iter");
	int none = cg_label_new(cg), done = cg_label_new(cg);

	if (vec == NULL || dt_type_size(vec) == 0)
		dt_cerror(cg->pcb, NULL, 0, "io's fileinfo_t needs struct bio_vec in the kernel's BTF");
	sp_read(cg, dctx, BPF_R8, BPF_R7, sp_member(cg, "struct request", "bio"), 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	sp_read(cg, dctx, BPF_R9, BPF_R8, iter + sp_member(cg, "struct bvec_iter", "bi_idx"), 4);
	sp_read(cg, dctx, BPF_R8, BPF_R8, sp_member(cg, "struct bio", "bi_io_vec"), 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R9, (int32_t)dt_type_size(vec)));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R8, BPF_R9));
	sp_read(cg, dctx, BPF_R8, BPF_R8, sp_member(cg, "struct bio_vec", "bv_page"), 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	/* page_folio(): a tail page's compound_head is its head's address + 1. */
	int head = cg_label_new(cg);
	sp_read(cg, dctx, BPF_R9, BPF_R8, sp_member(cg, "struct page", "compound_head"), 8);
	cg_jmp_imm(cg, BPF_JSET, BPF_R9, 1, head);
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R8));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R9, 1));
	cg_label_place(cg, head);
	cg_emit(cg, I_ALU64_IMM(BPF_SUB, BPF_R9, 1));
	sp_read(cg, dctx, BPF_R8, BPF_R9, sp_member(cg, "struct page", "mapping"), 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	/* PAGE_MAPPING_ANON and _MOVABLE: not a file's. */
	cg_jmp_imm(cg, BPF_JSET, BPF_R8, 3, none);
	sp_read(cg, dctx, BPF_R8, BPF_R8, sp_member(cg, "struct address_space", "host"), 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	sp_read(cg, dctx, BPF_R9, BPF_R8, sp_member(cg, "struct inode", "i_mode"), 2);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R9, S_IFMT));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R9, S_IFBLK, none);
	cg_ja(cg, done);
	cg_label_place(cg, none);
	cg_emit(cg, I_MOV64_IMM(BPF_R8, 0));
	cg_label_place(cg, done);
	sp_set_arg(cg, dctx, 1u << 2, 2, BPF_R8);
}

static void request(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	sp_raw_arg(cg, BPF_R7, 0);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
	if (used & 4)
		request_file(cg, dctx);
}

/* submit_bio_wait(bio): args[0] and args[1] from the bio; no file. */
static void waiter(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	if (!(used & 3))
		return;
	sp_fn_arg(cg, dctx, BPF_R7, 0);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

#define BIO "struct bio *"
#define WAIT_ARGS { { BIO, "bufinfo_t *" }, { BIO, "devinfo_t *" }, { "struct file *", "fileinfo_t *" } }

static const struct sp_probe probes[] = {
	{ "done", SP_RAW, "block", { "block_rq_complete" }, { RQ }, ARGS, request, false },
	{ "start", SP_RAW, "block", { "block_rq_issue" }, { RQ }, ARGS, request, false },
	{ "wait-done", SP_FEXIT, NULL, { "submit_bio_wait" }, { BIO }, WAIT_ARGS, waiter, false },
	{ "wait-start", SP_FENTRY, NULL, { "submit_bio_wait" }, { BIO }, WAIT_ARGS, waiter, false },
};

static int populate(struct dt_registry *reg)
{
	return sp_populate(reg, &dt_prov_io, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_io = {
	.name = "io",
	.populate = populate,
	.mech_class = sp_mech_class,
	.choose = sp_choose,
	.arg_desc = sp_arg_desc,
	.arg_count = sp_arg_count,
	.other_thread = sp_other_thread,
	.unavailable = sp_unavailable,
	.probe_unavailable = sp_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
