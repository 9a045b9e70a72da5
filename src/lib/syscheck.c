/*
 * What the system lets dtrace do, said so that a sysadmin can act on it:
 * privileges (root, or CAP_BPF and CAP_PERFMON), kernel lockdown, kernel
 * BTF, tracefs.  dtrace_preflight() checks before anything is loaded;
 * base/hint.c adds the cause to a compile error that a missing facility
 * explains.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/provider.h"
#include "lib/dt_impl.h"
#include "providers/tracefs.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

#define LOCKDOWN_FILE "/sys/kernel/security/lockdown"

/* Whether the effective capability set holds cap; -1 if it cannot be read. */
static int has_cap(unsigned cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

static int check_privileges(dtrace_hdl_t *dtp)
{
	int bpf = has_cap(CAP_BPF), perfmon = has_cap(CAP_PERFMON), admin = has_cap(CAP_SYS_ADMIN);
	char exe[256] = "dtrace";
	ssize_t n;

	if (bpf < 0 || (bpf && perfmon) || admin > 0)
		return 0;	/* allowed, or cannot tell: the kernel decides */
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0)
		exe[n] = '\0';
	return dt_set_error(dtp->core, -EPERM,
			    "DTrace requires additional privileges: run as root, or grant "
			    "CAP_BPF and CAP_PERFMON (and CAP_DAC_READ_SEARCH for the syscall "
			    "and sdt providers), e.g. setcap "
			    "cap_bpf,cap_perfmon,cap_dac_read_search+ep %s", exe);
}

/* "none [integrity] confidentiality": the bracketed mode is the one in force. */
static int check_lockdown(dtrace_hdl_t *dtp)
{
	char buf[128] = "";
	FILE *fp = fopen(LOCKDOWN_FILE, "re");

	if (fp == NULL)
		return 0;	/* no securityfs or no lockdown LSM: not locked down */
	if (fgets(buf, sizeof(buf), fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	if (strstr(buf, "[confidentiality]") == NULL)
		return 0;
	return dt_set_error(dtp->core, -EPERM,
			    "the kernel is locked down in confidentiality mode (%s), which "
			    "forbids BPF programs to read kernel memory: boot with "
			    "lockdown=integrity or lockdown=none (with Secure Boot, the kernel "
			    "may force confidentiality mode)", LOCKDOWN_FILE);
}

int dtrace_preflight(dtrace_hdl_t *dtp)
{
	int rc = check_privileges(dtp);

	return rc < 0 ? rc : check_lockdown(dtp);
}

int dtrace_provider_iter(dtrace_hdl_t *dtp, dtrace_provider_f *func, void *arg)
{
	for (size_t i = 0; i < dtp->reg->nproviders; i++) {
		const struct dt_provider *p = dtp->reg->providers[i];
		const char *why = p->unavailable ? p->unavailable(dtp->reg) : NULL;
		int rc = func(dtp, p->name, why, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}
