/*
 * The process model of DTrace's proc(4): psinfo_t for a process and
 * lwpsinfo_t for a thread, translated from the kernel's struct
 * task_struct, and curpsinfo and curlwpsinfo for the current thread.
 *
 * Members no kernel can give (pr_size, pr_nice, pr_cpu ...) have no
 * definition: using them is DTrace's D_XLATE_NOCONV error.  Where kernels
 * differ, a member has one definition per kernel layout; the first one
 * that checks against the running kernel's BTF is used, and a member with
 * none is an error only for a program that uses it.
 */

typedef struct timestruc {
	time_t tv_sec;
	long tv_nsec;
} timestruc_t;

typedef id_t dprojid_t;
typedef id_t poolid_t;

typedef struct lwpsinfo {
	int pr_flag;			/* thread flags (PR_STOPPED) */
	id_t pr_lwpid;			/* thread id */
	uintptr_t pr_addr;		/* its struct task_struct */
	uintptr_t pr_wchan;		/* wait address (not kept by Linux: 0) */
	char pr_stype;			/* synchronization object type */
	char pr_state;			/* SSLEEP, SRUN ... */
	char pr_sname;			/* the state as a letter */
	char pr_nice;			/* (no conversion) */
	short pr_syscall;		/* (no conversion) */
	char pr_oldpri;			/* (no conversion) */
	char pr_cpu;			/* (no conversion) */
	int pr_pri;			/* kernel priority */
	ushort_t pr_pctcpu;		/* (no conversion) */
	ushort_t pr_pad;
	timestruc_t pr_start;		/* (no conversion) */
	timestruc_t pr_time;		/* (no conversion) */
	char pr_clname[8];		/* scheduling class: TS, RT, IA ... */
	char pr_name[16];		/* thread name */
	processorid_t pr_onpro;		/* CPU it last ran on */
	processorid_t pr_bindpro;	/* (no conversion) */
	psetid_t pr_bindpset;		/* (no conversion) */
	int pr_lgrp;			/* (no conversion) */
	int pr_filler[4];
} lwpsinfo_t;

typedef struct psinfo {
	int pr_flag;			/* (no conversion) */
	int pr_nlwp;			/* number of threads */
	pid_t pr_pid;			/* process id */
	pid_t pr_ppid;			/* parent's process id */
	pid_t pr_pgid;			/* process group id */
	pid_t pr_sid;			/* session id */
	uid_t pr_uid;			/* real user id */
	uid_t pr_euid;			/* effective user id */
	gid_t pr_gid;			/* real group id */
	gid_t pr_egid;			/* effective group id */
	uintptr_t pr_addr;		/* its struct task_struct */
	size_t pr_size;			/* (no conversion) */
	size_t pr_rssize;		/* (no conversion) */
	size_t pr_pad1;
	struct tty_struct *pr_ttydev;	/* controlling terminal, or -1 */
	ushort_t pr_pctcpu;		/* (no conversion) */
	ushort_t pr_pctmem;		/* (no conversion) */
	timestruc_t pr_start;		/* (no conversion) */
	timestruc_t pr_time;		/* (no conversion) */
	timestruc_t pr_ctime;		/* (no conversion) */
	char pr_fname[16];		/* name of the executable (comm) */
	char pr_psargs[80];		/* its arguments (the current process's) */
	int pr_wstat;			/* exit status once it has exited */
	int pr_argc;			/* argument count (the current process's) */
	uintptr_t pr_argv;		/* argument vector (the current process's) */
	uintptr_t pr_envp;		/* environment vector (the current process's) */
	char pr_dmodel;			/* PR_MODEL_LP64 or PR_MODEL_ILP32 */
	char pr_pad2[3];
	taskid_t pr_taskid;		/* 0 */
	dprojid_t pr_projid;		/* 0 */
	int pr_nzomb;			/* 0 */
	poolid_t pr_poolid;		/* 0 */
	zoneid_t pr_zoneid;		/* 0 */
	id_t pr_contract;		/* 0 */
	int pr_filler[1];
	lwpsinfo_t pr_lwp;		/* (no conversion) */
} psinfo_t;

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[2]->numbers[0].nr;
	pr_sid = T->signal->pids[3]->numbers[0].nr;
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_ttydev = T->signal->tty != NULL ? T->signal->tty : (struct tty_struct *)-1;
	pr_fname = T->comm;
	/* Only the current process's memory can be read. */
	pr_psargs = T == curthread ? execargs : stringof(T->comm);
	pr_wstat = T->exit_code;
	pr_argc = T == curthread && T->mm != NULL ?
	    *(int *)copyin(T->mm->start_stack, sizeof (int)) : 0;
	pr_argv = T == curthread && T->mm != NULL ? T->mm->start_stack + 8 : 0;
	pr_envp = T == curthread && T->mm != NULL ?
	    (*(int *)copyin(T->mm->start_stack, sizeof (int)) + 2) * 8 + T->mm->start_stack : 0;
	pr_dmodel = PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_nzomb = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
};

translator lwpsinfo_t < struct task_struct *T > {
	/* Stopped: SSTOP below (a job-control or a traced stop). */
	pr_flag = (T->__state & 0xc) ? PR_STOPPED : 0;
	pr_flag = (T->state & 0xc) ? PR_STOPPED : 0;
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_wchan = 0;
	pr_stype = 0;
	/*
	 * The Oracle Linux DTrace Guide's mapping of the task states (the
	 * __state bits, exit_state for a zombie): TASK_RUNNING is SRUN,
	 * runnable or running on a CPU (Linux keeps no state for the
	 * latter, so Solaris' SONPROC is never given: at sched:::off-cpu a
	 * preempted thread is SRUN); TASK_(UN)INTERRUPTIBLE SSLEEP, as are
	 * TASK_PARKED (0x40) and TASK_RTLOCK_WAIT (0x1000), which block too;
	 * __TASK_STOPPED and __TASK_TRACED SSTOP; EXIT_ZOMBIE, EXIT_DEAD and
	 * TASK_DEAD (0x80) SZOMB; TASK_WAKEKILL and TASK_WAKING SWAIT.
	 */
	pr_state = T->exit_state & 0x30 ? SZOMB :
	    T->__state & 0x3 ? SSLEEP :
	    T->__state & 0xc ? SSTOP :
	    T->__state & 0xb0 ? SZOMB :
	    T->__state & 0x1040 ? SSLEEP :
	    T->__state & 0x300 ? SWAIT : SRUN;
	pr_state = T->exit_state & 0x30 ? SZOMB :
	    T->state & 0x3 ? SSLEEP :
	    T->state & 0xc ? SSTOP :
	    T->state & 0xb0 ? SZOMB :
	    T->state & 0x1040 ? SSLEEP :
	    T->state & 0x300 ? SWAIT : SRUN;
	pr_sname = T->exit_state & 0x30 ? 'Z' :
	    T->__state & 0x3 ? 'S' :
	    T->__state & 0xc ? 'T' :
	    T->__state & 0xb0 ? 'Z' :
	    T->__state & 0x1040 ? 'S' :
	    T->__state & 0x300 ? 'W' : 'R';
	pr_sname = T->exit_state & 0x30 ? 'Z' :
	    T->state & 0x3 ? 'S' :
	    T->state & 0xc ? 'T' :
	    T->state & 0xb0 ? 'Z' :
	    T->state & 0x1040 ? 'S' :
	    T->state & 0x300 ? 'W' : 'R';
	pr_pri = T->prio;
	pr_clname = T->policy == 1 || T->policy == 2 ? "RT" :
	    T->policy == 6 ? "DL" : T->policy == 5 ? "IA" : "TS";
	pr_name = T->comm;
	pr_onpro = T->thread_info.cpu;
	pr_onpro = T->cpu;
};

/* Stable, as DTrace's procfs.d declares them (the translations themselves are not). */
inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
#pragma D attributes Stable/Stable/Common curpsinfo
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
#pragma D attributes Stable/Stable/Common curlwpsinfo

/*
 * The Guide's cwd: the current process's working directory, as the
 * kernel's d_path() writes it (relative to the process's root, as
 * /proc/PID/cwd reads to it); "<unknown>" once the thread has given up
 * its fs_struct (late in its exit).
 */
inline string cwd = curthread->fs == NULL ? "<unknown>" : d_path(&curthread->fs->pwd);
#pragma D attributes Stable/Stable/Common cwd
