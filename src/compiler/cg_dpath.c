/*
 * File paths: d_path(struct path *), DTrace's, and the D library's own
 * __path_of(struct vfsmount *, struct dentry *), the same for a mount and
 * a dentry that no struct path holds together (fileinfo_t's fi_mount,
 * and the file of a block request), which says "<unknown>" rather than
 * "/" for a dentry that is not under the mount's root.
 * Both call the run-time's walk up the dentry and mount chains
 * (bpf/dpath.bpf.c) with the offsets of the kernel members it reads,
 * taken from BTF and stored in the work area before the call
 * (src/base/dpath_abi.h).  A bad struct path address faults as DTrace's
 * d_path() does.
 */
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/dpath_abi.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema_impl.h"

/* A member of a kernel struct, nested members dotted ("d_name.len"): its byte offset, or -1. */
static int32_t find_off(struct dt_cg *cg, const char *sou, const char *path)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	uint32_t total = 0;
	char part[64];

	for (const char *p = path; t != NULL && *p != '\0';) {
		size_t len = strcspn(p, ".");
		uint32_t off;
		if (len >= sizeof(part))
			break;
		memcpy(part, p, len);
		part[len] = '\0';
		const struct dt_member *m = dt_type_member(tt, t, part, &off);
		if (m == NULL) {
			t = NULL;
			break;
		}
		total += off;
		t = m->type;
		p += len;
		if (*p == '.')
			p++;
	}
	return t == NULL || total / 8 > UINT16_MAX ? -1 : (int32_t)(total / 8);
}

/* The same, or the member's other name (`alt`, if any); a compile error if neither. */
static uint16_t koff(struct dt_cg *cg, struct dt_node *n, const char *sou, const char *path,
		     const char *alt)
{
	int32_t off = find_off(cg, sou, path);

	if (off < 0 && alt != NULL)
		off = find_off(cg, sou, alt);
	if (off < 0)
		dt_cerror(cg->pcb, NULL, n->line,
			  "%s( ) needs kernel BTF (%s member %s not found in /sys/kernel/btf/vmlinux)",
			  n->id->name, sou, path);
	return (uint16_t)off;
}

/* Where a kernel renamed a member, its other name last. */
static const struct {
	const char *sou, *member, *alt;
} members[DP_NOFF] = {
	[DP_D_PARENT] = { "struct dentry", "d_parent" },
	[DP_D_NAME_LEN] = { "struct dentry", "d_name.len" },
	[DP_D_NAME] = { "struct dentry", "d_name.name" },
	[DP_D_HASH_PPREV] = { "struct dentry", "d_hash.pprev" },
	[DP_D_OP] = { "struct dentry", "d_op" },
	[DP_D_INODE] = { "struct dentry", "d_inode" },
	[DP_D_SB] = { "struct dentry", "d_sb" },
	[DP_OP_DNAME] = { "struct dentry_operations", "d_dname" },
	[DP_I_INO] = { "struct inode", "i_ino" },
	[DP_S_MAGIC] = { "struct super_block", "s_magic" },
	[DP_S_D_OP] = { "struct super_block", "s_d_op", "__s_d_op" },
	[DP_MNT_ROOT] = { "struct vfsmount", "mnt_root" },
	[DP_MOUNT_MNT] = { "struct mount", "mnt" },
	[DP_MOUNT_PARENT] = { "struct mount", "mnt_parent" },
	[DP_MOUNT_POINT] = { "struct mount", "mnt_mountpoint" },
	[DP_TASK_FS] = { "struct task_struct", "fs" },
	[DP_FS_ROOT_MNT] = { "struct fs_struct", "root.mnt" },
	[DP_FS_ROOT_DENTRY] = { "struct fs_struct", "root.dentry" },
};

/* Store the offsets in the work area `w` (its words from DP_OFF_WORD on). */
static void store_offsets(struct dt_cg *cg, struct dt_node *n, int w, uint32_t nb)
{
	int32_t base = (int32_t)(3 * DT_STR_BUF(nb) + 8 * DP_OFF_WORD);

	for (int i = 0; i < DP_NOFF; i++)
		cg_emit(cg, I_ST(BPF_H, w, (int16_t)(base + 2 * i),
				 koff(cg, n, members[i].sou, members[i].member, members[i].alt)));
}

int cg_dpath_subr(struct dt_cg *cg, struct dt_node *n)
{
	uint32_t nb = dt_str_bytes(cg->cc);
	int code = n->id->code;
	int a[5];

	if (code != SUB_D_PATH && code != SUB_PATH_OF)
		return -1;
	if (code == SUB_D_PATH) {
		uint16_t mnt = koff(cg, n, "struct path", "mnt", NULL);
		uint16_t dentry = koff(cg, n, "struct path", "dentry", NULL);
		int p = cg_expr(cg, n->call.args);
		a[1] = cg_reg_alloc(cg);
		a[2] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[1], p));
		cg_emit(cg, I_MOV64_REG(a[2], p));
		cg_reg_free(cg, p);
		if (mnt != 0)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], mnt));
		cg_load_bytes(cg, a[1], 8, false);
		if (dentry != 0)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[2], dentry));
		cg_load_bytes(cg, a[2], 8, false);
	} else {
		a[1] = cg_expr(cg, n->call.args);
		a[2] = cg_expr(cg, n->call.args->next);
	}
	a[0] = cg_scratch_alloc(cg, DT_STR_WORK(nb));
	store_offsets(cg, n, a[0], nb);
	a[3] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[3], (int32_t)nb));
	a[4] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[4], code == SUB_PATH_OF ? DP_STRICT : 0));
	return cg_call_func(cg, "dt_rt_dpath", a, 5);
}
