/*
 * What the compiler and the run-time's path walk (bpf/dpath.bpf.c) agree
 * on.  d_path() runs in the work area of the string functions
 * (DT_STR_WORK): the result in its first buffer, the walk's state in its
 * first words, and from word DP_OFF_WORD on the byte offsets of the kernel
 * members the walk reads, as 16-bit numbers in the order below, which the
 * compiler takes from BTF and stores before the call.
 */
#ifndef DT_DPATH_ABI_H
#define DT_DPATH_ABI_H

enum dt_dpath_off {
	DP_D_PARENT,		/* struct dentry: d_parent */
	DP_D_NAME_LEN,		/* d_name.len (u32) */
	DP_D_NAME,		/* d_name.name */
	DP_D_HASH_PPREV,	/* d_hash.pprev: 0 once unhashed */
	DP_D_OP,		/* d_op */
	DP_D_INODE,		/* d_inode */
	DP_D_SB,		/* d_sb */
	DP_OP_DNAME,		/* struct dentry_operations: d_dname */
	DP_I_INO,		/* struct inode: i_ino */
	DP_S_MAGIC,		/* struct super_block: s_magic (unsigned long) */
	DP_S_D_OP,		/* s_d_op */
	DP_MNT_ROOT,		/* struct vfsmount: mnt_root */
	DP_MOUNT_MNT,		/* struct mount: mnt (the vfsmount in it) */
	DP_MOUNT_PARENT,	/* mnt_parent */
	DP_MOUNT_POINT,		/* mnt_mountpoint */
	DP_TASK_FS,		/* struct task_struct: fs */
	DP_FS_ROOT_MNT,		/* struct fs_struct: root.mnt */
	DP_FS_ROOT_DENTRY,	/* root.dentry */
	DP_NOFF
};

#define DP_OFF_WORD	8	/* offsets start at this word of the work area */

/* Flags (the call's last argument). */
#define DP_STRICT	1	/* a dentry not under the mount's root: "<unknown>", not "/" */

#endif
