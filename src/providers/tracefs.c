/* tracefs: the mount point and the list of tracepoints. */
#include "providers/tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *dt_tracefs(void)
{
	static const char *const paths[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s/available_events", paths[i]);
		if (access(p, R_OK) == 0)
			return paths[i];
	}
	return NULL;
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
