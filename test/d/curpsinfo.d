/*
 * curpsinfo and curlwpsinfo of the dtrace process itself (BEGIN runs in
 * it), checked against the built-in variables; curthread with ->; module
 * scoped kernel types.
 */
#pragma D option quiet

BEGIN
{
	printf("pr_pid %d\n", curpsinfo->pr_pid == pid);
	printf("pr_ppid %d\n", curpsinfo->pr_ppid == ppid);
	printf("pr_uid %d pr_gid %d\n", curpsinfo->pr_uid == uid, curpsinfo->pr_gid == gid);
	printf("pr_fname %s\n", curpsinfo->pr_fname);
	printf("pr_psargs %d\n", index(curpsinfo->pr_psargs, "dtrace") >= 0);
	printf("pr_nlwp %d\n", curpsinfo->pr_nlwp >= 1);
	printf("pr_addr %d\n", curpsinfo->pr_addr == (uintptr_t)curthread);
	printf("pr_dmodel %d\n", curpsinfo->pr_dmodel == PR_MODEL_LP64);
	printf("pr_lwpid %d\n", curlwpsinfo->pr_lwpid == tid);
	printf("pr_name %s\n", curlwpsinfo->pr_name);
	printf("pr_state %d %c\n", curlwpsinfo->pr_state == SRUN, curlwpsinfo->pr_sname);
	printf("pr_onpro %d\n", curlwpsinfo->pr_onpro == cpu);
	printf("xlate %d\n", xlate <psinfo_t> (curthread).pr_pid == pid);
	printf("deref %d\n", (*curpsinfo).pr_ppid == ppid);
	printf("curthread %d %d\n", curthread->tgid == pid,
	    ((vmlinux`struct task_struct *)curthread)->real_parent->tgid == ppid);
	printf("sizeof %d\n", sizeof (struct vmlinux`task_struct) ==
	    sizeof (vmlinux`struct task_struct));
	exit(0);
}
