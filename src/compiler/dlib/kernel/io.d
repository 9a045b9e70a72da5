/*
 * The io provider's arguments: bufinfo_t (the transfer), devinfo_t (the
 * device) and fileinfo_t (the file), translated from the block layer's
 * struct request and struct bio; and fileinfo_t from a struct file.
 */

typedef struct bufinfo {
	int b_flags;			/* B_READ or B_WRITE, B_ASYNC, B_PHYS */
	size_t b_bcount;		/* bytes to transfer */
	caddr_t b_addr;			/* (not known here: 0) */
	uint64_t b_lblkno;		/* first sector */
	uint64_t b_blkno;		/* first sector */
	size_t b_resid;			/* (0) */
	size_t b_bufsize;		/* bytes to transfer */
	caddr_t b_iodone;		/* completion routine */
	int b_error;			/* (0) */
	dev_t b_edev;			/* the device (partition) */
} bufinfo_t;

typedef struct devinfo {
	int dev_major;			/* major number */
	int dev_minor;			/* minor number */
	int dev_instance;		/* (0) */
	string dev_name;		/* driver: "virtio_blk", "nvme" ... */
	string dev_statname;		/* disk and partition: "vda", "sda1" ... */
	string dev_pathname;		/* "/dev/" and dev_statname */
} devinfo_t;

typedef struct fileinfo {
	string fi_name;			/* file name */
	string fi_dirname;		/* its directory */
	string fi_pathname;		/* its path */
	loff_t fi_offset;		/* offset in the file */
	string fi_fs;			/* file system type */
	string fi_mount;		/* mount point */
	int fi_oflags;			/* open(2) flags */
} fileinfo_t;

/* REQ_OP_WRITE is odd; REQ_SYNC is flag bit 11 (after the 8 bits of the op). */
translator bufinfo_t < struct request *R > {
	b_flags = (R->cmd_flags & 1 ? B_WRITE : B_READ) |
	    (R->cmd_flags & 0x800 ? 0 : B_ASYNC) | B_PHYS;
	b_bcount = R->__data_len;
	b_addr = 0;
	b_lblkno = R->__sector;
	b_blkno = R->__sector;
	b_resid = 0;
	b_bufsize = R->__data_len;
	b_iodone = (caddr_t)R->end_io;
	b_error = 0;
	b_edev = R->part != NULL ? R->part->bd_dev : 0;
};

translator devinfo_t < struct request *R > {
	dev_major = R->part != NULL ? getmajor(R->part->bd_dev) : 0;
	dev_minor = R->part != NULL ? getminor(R->part->bd_dev) : 0;
	dev_instance = 0;
	dev_name = R->q->disk != NULL && R->q->disk->part0->bd_device.parent != NULL &&
	    R->q->disk->part0->bd_device.parent->driver != NULL ?
	    stringof(R->q->disk->part0->bd_device.parent->driver->name) : "<none>";
	/* The partition number: in __bd_flags' low byte, or bd_partno before 6.10. */
	dev_statname = R->part == NULL ? "<none>" :
	    (R->part->__bd_flags.counter & 0xff) == 0 ? stringof(R->part->bd_disk->disk_name) :
	    strjoin(stringof(R->part->bd_disk->disk_name),
	    lltostr(R->part->__bd_flags.counter & 0xff));
	dev_statname = R->part == NULL ? "<none>" :
	    R->part->bd_partno == 0 ? stringof(R->part->bd_disk->disk_name) :
	    strjoin(stringof(R->part->bd_disk->disk_name), lltostr(R->part->bd_partno));
	dev_pathname = R->part == NULL ? "<none>" :
	    (R->part->__bd_flags.counter & 0xff) == 0 ?
	    strjoin("/dev/", stringof(R->part->bd_disk->disk_name)) :
	    strjoin("/dev/", strjoin(stringof(R->part->bd_disk->disk_name),
	    lltostr(R->part->__bd_flags.counter & 0xff)));
	dev_pathname = R->part == NULL ? "<none>" :
	    R->part->bd_partno == 0 ? strjoin("/dev/", stringof(R->part->bd_disk->disk_name)) :
	    strjoin("/dev/", strjoin(stringof(R->part->bd_disk->disk_name),
	    lltostr(R->part->bd_partno)));
};

/*
 * A bio (io:::wait-start and wait-done): the same, from its operation and
 * flags (bi_opf, as a request's cmd_flags), its iterator (what is left to
 * transfer: by the end of a wait the kernel has moved it over what was
 * transferred) and its block device.
 */
translator bufinfo_t < struct bio *B > {
	b_flags = (B->bi_opf & 1 ? B_WRITE : B_READ) | (B->bi_opf & 0x800 ? 0 : B_ASYNC) | B_PHYS;
	b_bcount = B->bi_iter.bi_size;
	b_addr = 0;
	b_lblkno = B->bi_iter.bi_sector;
	b_blkno = B->bi_iter.bi_sector;
	b_resid = 0;
	b_bufsize = B->bi_iter.bi_size;
	b_iodone = (caddr_t)B->bi_end_io;
	b_error = 0;
	b_edev = B->bi_bdev != NULL ? B->bi_bdev->bd_dev : 0;
};

translator devinfo_t < struct bio *B > {
	dev_major = B->bi_bdev != NULL ? getmajor(B->bi_bdev->bd_dev) : 0;
	dev_minor = B->bi_bdev != NULL ? getminor(B->bi_bdev->bd_dev) : 0;
	dev_instance = 0;
	dev_name = B->bi_bdev != NULL && B->bi_bdev->bd_disk->part0->bd_device.parent != NULL &&
	    B->bi_bdev->bd_disk->part0->bd_device.parent->driver != NULL ?
	    stringof(B->bi_bdev->bd_disk->part0->bd_device.parent->driver->name) : "<none>";
	/* The partition number: in __bd_flags' low byte, or bd_partno before 6.10. */
	dev_statname = B->bi_bdev == NULL ? "<none>" :
	    (B->bi_bdev->__bd_flags.counter & 0xff) == 0 ? stringof(B->bi_bdev->bd_disk->disk_name) :
	    strjoin(stringof(B->bi_bdev->bd_disk->disk_name),
	    lltostr(B->bi_bdev->__bd_flags.counter & 0xff));
	dev_statname = B->bi_bdev == NULL ? "<none>" :
	    B->bi_bdev->bd_partno == 0 ? stringof(B->bi_bdev->bd_disk->disk_name) :
	    strjoin(stringof(B->bi_bdev->bd_disk->disk_name), lltostr(B->bi_bdev->bd_partno));
	dev_pathname = B->bi_bdev == NULL ? "<none>" :
	    (B->bi_bdev->__bd_flags.counter & 0xff) == 0 ?
	    strjoin("/dev/", stringof(B->bi_bdev->bd_disk->disk_name)) :
	    strjoin("/dev/", strjoin(stringof(B->bi_bdev->bd_disk->disk_name),
	    lltostr(B->bi_bdev->__bd_flags.counter & 0xff)));
	dev_pathname = B->bi_bdev == NULL ? "<none>" :
	    B->bi_bdev->bd_partno == 0 ? strjoin("/dev/", stringof(B->bi_bdev->bd_disk->disk_name)) :
	    strjoin("/dev/", strjoin(stringof(B->bi_bdev->bd_disk->disk_name),
	    lltostr(B->bi_bdev->bd_partno)));
};

/*
 * The file of a block request (io:::start and done): the inode whose page
 * the request transfers first (none for direct I/O, swap or metadata).
 * Its path is one of its names (its first dentry) under the first mount
 * of its file system; where in the file the I/O is, the request does not
 * say (-1, as the Guide has it for a file system that does not specify).
 */
inline vmlinux`struct vfsmount *__sb_mount[vmlinux`struct super_block *S] =
    S->s_mounts == NULL ? NULL : &S->s_mounts->mnt;
/* Older kernels: a list of the superblock's mounts. */
inline vmlinux`struct vfsmount *__sb_mount[vmlinux`struct super_block *S] =
    S->s_mounts.next == &S->s_mounts ? NULL : (vmlinux`struct vfsmount *)((char *)S->s_mounts.next -
    offsetof(vmlinux`struct mount, mnt_instance) + offsetof(vmlinux`struct mount, mnt));
inline vmlinux`struct dentry *__inode_dentry[vmlinux`struct inode *I] =
    I->i_dentry.first == NULL ? NULL :
    (vmlinux`struct dentry *)((char *)I->i_dentry.first - offsetof(vmlinux`struct dentry, d_u));

translator fileinfo_t < struct inode *I > {
	fi_name = I == NULL ? "<none>" :
	    basename(__path_of(__sb_mount[I->i_sb], __inode_dentry[I]));
	fi_dirname = I == NULL ? "<none>" :
	    dirname(__path_of(__sb_mount[I->i_sb], __inode_dentry[I]));
	fi_pathname = I == NULL ? "<none>" : __path_of(__sb_mount[I->i_sb], __inode_dentry[I]);
	fi_offset = -1;
	fi_fs = I == NULL ? "<none>" : stringof(I->i_sb->s_type->name);
	fi_mount = I == NULL ? "<none>" : __sb_mount[I->i_sb] == NULL ? "<unknown>" :
	    __path_of(__sb_mount[I->i_sb], __sb_mount[I->i_sb]->mnt_root);
	fi_oflags = 0;
};

/*
 * A file: its path as the kernel's d_path() writes it (relative to the
 * current process's root; " (deleted)" once unlinked; "pipe:[ino]" and
 * the like for pseudo files), the name and directory cut from it as the
 * Guide defines them, the mount point of its file system, its open(2)
 * flags as the kernel keeps them (O_LARGEFILE included).  No file:
 * "<none>", and an offset of -1.
 */
translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" : basename(d_path(&F->f_path));
	fi_dirname = F == NULL ? "<none>" : dirname(d_path(&F->f_path));
	fi_pathname = F == NULL ? "<none>" : d_path(&F->f_path);
	fi_offset = F == NULL ? -1 : F->f_pos;
	fi_fs = F == NULL ? "<none>" : stringof(F->f_path.mnt->mnt_sb->s_type->name);
	fi_mount = F == NULL ? "<none>" : __path_of(F->f_path.mnt, F->f_path.mnt->mnt_root);
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

/* fds[fd]: the current process's open file fd, as DTrace's io.d defines it. */
inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    fd >= 0 && fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : NULL);
#pragma D attributes Stable/Stable/Common fds
