/*
 * d_path(): the path of a file (a vfsmount and a dentry) as the kernel's
 * d_path() writes it, made without the bpf_d_path helper, which the
 * kernel allows only in programs attached to a few functions:
 *
 *   - from the dentry up to the root of the current task (its fs root),
 *     crossing from the root of a mount to the dentry it is mounted on;
 *     reaching the root of the mount tree ends the path there too (a file
 *     outside the task's root keeps its whole path, as in d_path());
 *   - a dentry whose parent is itself without being a mount's root
 *     (d_path()'s "escaped" case) is "/";
 *   - an unlinked file ends in " (deleted)";
 *   - files of pseudo file systems are named as their d_dname() names
 *     them: "pipe:[ino]", "socket:[ino]", "anon_inode:<name>", and
 *     "/<name> (deleted)" for those d_alloc_pseudo() makes (memfd, SysV
 *     shared memory); another d_dname() is one we cannot run: "<unknown>".
 *
 * With DP_STRICT, the escaped case is "<unknown>" instead.
 *
 * Two passes over the chain: the first adds up the path's length, the
 * second puts each name at its place, so that a path longer than strsize
 * keeps its beginning, as any string does.  A chain that is not the same
 * in both passes (a rename between them), or that cannot be read, or
 * that is longer than DP_MAX_STEPS, gives "<unknown>".
 *
 * The offsets of the kernel members come from the compiler
 * (src/base/dpath_abi.h); the walk's state lives in the work area's words,
 * which the verifier does not track, so that it checks one step.
 */
#include <stdbool.h>

#include "strutil.h"

#include "base/dpath_abi.h"

#define PIPEFS_MAGIC		0x50495045
#define SOCKFS_MAGIC		0x534F434B
#define ANON_INODE_FS_MAGIC	0x09041934

#define DP_MAX_STEPS	4096

/* The state words. */
enum { S_DENTRY, S_MNT, S_ROOT_DENTRY, S_ROOT_MNT, S_LEN, S_END, S_POS };
/* How a walk ended (S_END). */
enum { END_NONE, END_ROOT, END_ESCAPED, END_FAULT };

struct walk {
	char *out;
	u64 *st;
	const __u16 *off;
	u64 nb;
	u64 write;		/* the second pass: place the names */
};

static __always_inline u64 kword(u64 addr)
{
	u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (const void *)addr);
	return v;
}

static __always_inline u64 kword32(u64 addr)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (const void *)addr);
	return v;
}

/* Put the name (len bytes) after a slash at pos, what of it fits before nb - 1. */
static __always_inline void place(struct walk *x, u64 pos, u64 name, u64 len)
{
	u64 nb = x->nb;

	if (nb < 2 || pos >= nb - 1)
		return;
	x->out[pos] = '/';
	u64 at = pos + 1;
	if (at >= nb - 1)
		return;
	u64 n = len;
	if (n > nb - 1 - at)
		n = nb - 1 - at;
	if (n == 0 || n >= nb)
		return;
	bpf_probe_read_kernel(x->out + dt_opaque(at), n, (const void *)name);
}

/* One step up the chain, as the kernel's __prepend_path() takes it. */
static long walk_step(u64 i, void *arg)
{
	struct walk *x = arg;
	u64 *st = x->st;
	const __u16 *o = x->off;
	u64 dentry = st[S_DENTRY], mnt = st[S_MNT];

	if (dentry == st[S_ROOT_DENTRY] && mnt == st[S_ROOT_MNT]) {
		st[S_END] = END_ROOT;
		return 1;
	}
	u64 mroot = kword(mnt + o[DP_MNT_ROOT]);
	if (mroot == 0) {
		st[S_END] = END_FAULT;
		return 1;
	}
	if (dentry == mroot) {
		u64 mount = mnt - o[DP_MOUNT_MNT];
		u64 up = kword(mount + o[DP_MOUNT_PARENT]);
		u64 mp = kword(mount + o[DP_MOUNT_POINT]);
		if (up == 0 || mp == 0) {
			st[S_END] = END_FAULT;
			return 1;
		}
		if (up == mount) {	/* the root of the mount tree */
			st[S_END] = END_ROOT;
			return 1;
		}
		st[S_DENTRY] = mp;
		st[S_MNT] = up + o[DP_MOUNT_MNT];
		return 0;
	}
	u64 parent = kword(dentry + o[DP_D_PARENT]);
	if (parent == 0) {
		st[S_END] = END_FAULT;
		return 1;
	}
	if (parent == dentry) {
		st[S_END] = END_ESCAPED;
		return 1;
	}
	u64 len = kword32(dentry + o[DP_D_NAME_LEN]);
	u64 name = kword(dentry + o[DP_D_NAME]);
	if (!x->write) {
		st[S_LEN] += len + 1;
	} else {
		u64 pos = st[S_POS];
		if (len + 1 > pos) {
			st[S_END] = END_FAULT;
			return 1;
		}
		pos -= len + 1;
		st[S_POS] = pos;
		place(x, pos, name, len);
	}
	st[S_DENTRY] = parent;
	return 0;
}

/* ---- Output pieces (the position in a state word, as in inet.bpf.c) ---- */

static __always_inline void put_char(char *d, u64 *pos, u64 nb, char c)
{
	u64 j = *(volatile u64 *)pos;

	if (j >= nb - 1)
		return;
	d[dt_opaque(j)] = c;
	*pos = j + 1;
}

/* Up to 8 characters packed into a word, the first in the low byte. */
#define PK8(a, b, c, d_, e, f, g, h) \
	((u64)(a) | (u64)(b) << 8 | (u64)(c) << 16 | (u64)(d_) << 24 | \
	 (u64)(e) << 32 | (u64)(f) << 40 | (u64)(g) << 48 | (u64)(h) << 56)

static __always_inline void put_packed(char *d, u64 *pos, u64 nb, u64 chars, int n)
{
	for (int i = 0; i < n; i++)
		put_char(d, pos, nb, (char)(chars >> (8 * i)));
}

static __always_inline void put_deleted(char *d, u64 *pos, u64 nb)
{
	put_packed(d, pos, nb, PK8(' ', '(', 'd', 'e', 'l', 'e', 't', 'e'), 8);
	put_packed(d, pos, nb, PK8('d', ')', 0, 0, 0, 0, 0, 0), 2);
}

static __always_inline void put_unknown(char *d, u64 *pos, u64 nb)
{
	put_packed(d, pos, nb, PK8('<', 'u', 'n', 'k', 'n', 'o', 'w', 'n'), 8);
	put_char(d, pos, nb, '>');
}

/* A kernel string. */
static __always_inline void put_kstr(char *d, u64 *pos, u64 nb, u64 s)
{
	u64 j = *(volatile u64 *)pos;

	if (j >= nb - 1)
		return;
	long n = bpf_probe_read_kernel_str(d + dt_opaque(j), nb - j, (const void *)s);
	if (n > 1)
		*pos = j + (u64)n - 1;
}

/* v in decimal. */
static __always_inline void put_dec(char *d, u64 *pos, u64 nb, u64 v)
{
	char digits[20];
	int n = 0;

	for (int i = 0; i < 20; i++) {
		digits[i] = (char)('0' + v % 10);
		n = i + 1;
		v /= 10;
		if (v == 0)
			break;
	}
	for (int i = 19; i >= 0; i--)
		if (i < n)
			put_char(d, pos, nb, digits[i]);
}

static __always_inline void finish(char *d, u64 *pos, u64 nb)
{
	u64 j = *(volatile u64 *)pos;

	if (j >= nb)
		j = nb - 1;
	d[dt_opaque(j)] = '\0';
}

/*
 * A dentry that names itself (d_op->d_dname), unless it is the root of
 * its mount: the names of pseudo files.  Whether it is one.
 */
static __always_inline bool pseudo(char *d, u64 *pos, u64 nb, const __u16 *o, u64 mnt,
				   u64 dentry)
{
	u64 op = kword(dentry + o[DP_D_OP]);

	if (op == 0 || kword(op + o[DP_OP_DNAME]) == 0)
		return false;
	if (kword(dentry + o[DP_D_PARENT]) == dentry && dentry == kword(mnt + o[DP_MNT_ROOT]))
		return false;
	u64 sb = kword(dentry + o[DP_D_SB]);
	u64 name = kword(dentry + o[DP_D_NAME]);
	if (kword(sb + o[DP_S_D_OP]) == 0) {
		/* d_alloc_pseudo()'s own operations: simple_dname(). */
		put_char(d, pos, nb, '/');
		put_kstr(d, pos, nb, name);
		put_deleted(d, pos, nb);
		return true;
	}
	u64 magic = kword(sb + o[DP_S_MAGIC]);
	u64 ino = kword(kword(dentry + o[DP_D_INODE]) + o[DP_I_INO]);
	if (magic == PIPEFS_MAGIC || magic == SOCKFS_MAGIC) {
		if (magic == PIPEFS_MAGIC) {
			put_packed(d, pos, nb, PK8('p', 'i', 'p', 'e', ':', '[', 0, 0), 6);
		} else {
			put_packed(d, pos, nb, PK8('s', 'o', 'c', 'k', 'e', 't', ':', '['), 8);
		}
		put_dec(d, pos, nb, ino);
		put_char(d, pos, nb, ']');
	} else if (magic == ANON_INODE_FS_MAGIC) {
		put_packed(d, pos, nb, PK8('a', 'n', 'o', 'n', '_', 'i', 'n', 'o'), 8);
		put_packed(d, pos, nb, PK8('d', 'e', ':', 0, 0, 0, 0, 0), 3);
		put_kstr(d, pos, nb, name);
	} else {
		put_unknown(d, pos, nb);
	}
	return true;
}

DT_RT u64 dt_rt_dpath(u64 w, u64 mnt, u64 dentry, u64 nb, u64 flags)
{
	char *d = (char *)w;
	u64 *st = dt_words(d, nb);
	const __u16 *o = (const __u16 *)(st + DP_OFF_WORD);
	u64 *pos = &st[S_POS];

	*pos = 0;
	if (nb < 2)
		return w;
	if (mnt == 0 || dentry == 0) {
		put_unknown(d, pos, nb);
		finish(d, pos, nb);
		return w;
	}
	if (pseudo(d, pos, nb, o, mnt, dentry)) {
		finish(d, pos, nb);
		return w;
	}

	u64 fs = kword(bpf_get_current_task() + o[DP_TASK_FS]);
	st[S_ROOT_MNT] = fs != 0 ? kword(fs + o[DP_FS_ROOT_MNT]) : 0;
	st[S_ROOT_DENTRY] = fs != 0 ? kword(fs + o[DP_FS_ROOT_DENTRY]) : 0;
	st[S_DENTRY] = dentry;
	st[S_MNT] = mnt;
	st[S_LEN] = 0;
	st[S_END] = END_NONE;
	struct walk x = { .out = d, .st = st, .off = o, .nb = nb, .write = 0 };
	bpf_loop(DP_MAX_STEPS, walk_step, &x, 0);
	u64 end = *(volatile u64 *)&st[S_END];
	u64 total = *(volatile u64 *)&st[S_LEN];
	if (end == END_NONE || end == END_FAULT || (end == END_ESCAPED && (flags & DP_STRICT))) {
		put_unknown(d, pos, nb);
		finish(d, pos, nb);
		return w;
	}
	if (end == END_ESCAPED || total == 0) {
		put_char(d, pos, nb, '/');
	} else {
		st[S_DENTRY] = dentry;
		st[S_MNT] = mnt;
		st[S_END] = END_NONE;
		st[S_POS] = total;
		x.write = 1;
		bpf_loop(DP_MAX_STEPS, walk_step, &x, 0);
		if (*(volatile u64 *)&st[S_END] != end || *(volatile u64 *)&st[S_POS] != 0) {
			*pos = 0;
			put_unknown(d, pos, nb);
			finish(d, pos, nb);
			return w;
		}
		*pos = total < nb - 1 ? total : nb - 1;
	}
	/* d_unlinked(): unhashed, and not a root. */
	if (kword(dentry + o[DP_D_HASH_PPREV]) == 0 &&
	    kword(dentry + o[DP_D_PARENT]) != dentry)
		put_deleted(d, pos, nb);
	finish(d, pos, nb);
	return w;
}

char LICENSE[] SEC("license") = "GPL";
