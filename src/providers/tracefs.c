/* tracefs: the mount point and the list of tracepoints. */
#include "providers/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

static const char *const paths[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

const char *dt_tracefs(void)
{
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s/available_events", paths[i]);
		/* AT_EACCESS: capabilities (CAP_DAC_READ_SEARCH) count, as for open() */
		if (faccessat(AT_FDCWD, p, R_OK, AT_EACCESS) == 0)
			return paths[i];
	}
	return NULL;
}

const char *dt_tracefs_problem(void)
{
	struct statfs sf;
	bool denied = false;

	if (dt_tracefs() != NULL)
		return NULL;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s/available_events", paths[i]);
		if (faccessat(AT_FDCWD, p, F_OK, AT_EACCESS) == 0 || errno == EACCES)
			denied |= statfs(paths[i], &sf) == 0 && sf.f_type == TRACEFS_MAGIC;
	}
	if (denied)
		return "cannot read tracefs at /sys/kernel/tracing (permission denied): run as "
		       "root, or grant CAP_DAC_READ_SEARCH";
	return "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
}

int dt_tracefs_events(int (*f)(const char *group, const char *event, void *arg), void *arg)
{
	const char *base = dt_tracefs();
	char path[160];

	if (base == NULL)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/available_events", base);
	FILE *fp = fopen(path, "re");
	if (fp == NULL)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	while (getline(&line, &cap, fp) > 0) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		*colon = '\0';
		rc = f(line, colon + 1, arg);
		if (rc < 0)
			break;
	}
	free(line);
	fclose(fp);
	return rc < 0 ? rc : 0;
}
