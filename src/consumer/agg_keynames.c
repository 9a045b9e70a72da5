/* Names for aggregation keys (agg_keynames.h). */
#include "consumer/agg_keynames.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"

/* [a-zA-Z_][a-zA-Z0-9_]*, not __... (Prometheus keeps those for itself) */
static bool valid(const char *s)
{
	if (s == NULL || !(isalpha((unsigned char)s[0]) || s[0] == '_') || strncmp(s, "__", 2) == 0)
		return false;
	for (const char *c = s; *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	return true;
}

static bool taken(char *const *names, int n, const char *name, const char *reserved)
{
	if (reserved != NULL && strcmp(name, reserved) == 0)
		return true;
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

void dt_agg_keynames_free(char **names, int n)
{
	for (int i = 0; names != NULL && i < n; i++)
		free(names[i]);
	free(names);
}

char **dt_agg_keynames(const struct dt_aggdesc *ad, const char *reserved)
{
	char **names = calloc((size_t)ad->nkeys + 1, sizeof(*names));

	for (int i = 0; names != NULL && i < ad->nkeys; i++) {
		const char *want = ad->keys[i].name;
		char *name;
		if (valid(want) && !taken(names, i, want, reserved))
			name = strdup(want);
		else if (asprintf(&name, "key%d", i) < 0)
			name = NULL;
		while (name != NULL && taken(names, i, name, reserved)) {
			char *longer;
			if (asprintf(&longer, "%s_", name) < 0)
				longer = NULL;
			free(name);
			name = longer;
		}
		if (name == NULL) {
			dt_agg_keynames_free(names, i);
			return NULL;
		}
		names[i] = name;
	}
	return names;
}
