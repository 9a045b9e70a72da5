/*
 * Reading a verifier log: where in the D source the rejected instruction
 * came from (BTF line info makes the verifier print "; <text> @ <file>:<line>"
 * lines) and why it was rejected (the last line that is not bookkeeping).
 */
#include "bpf/verifier_log.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Log lines that are bookkeeping, not the reason for a rejection. */
static bool log_noise(const char *line, size_t len)
{
	static const char *const prefixes[] = {
		"processed ", "verification time", "stack depth", "; ",
	};

	if (len == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (strncmp(line, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * From a verifier log: the last source position the verifier printed
 * (lines "; <text> @ <file>:<line>", file without directories) of file
 * `source` (any file if NULL), and the last meaningful line.
 */
void bo_verifier_log_parse(const char *log, const char *source, char *pos, size_t poslen,
			   char *reason, size_t reasonlen)
{
	const char *want = source ? base_name(source) : NULL;

	pos[0] = reason[0] = '\0';
	for (const char *l = log; *l != '\0';) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (len > 2 && l[0] == ';' && l[1] == ' ') {
			const char *at = NULL;

			for (const char *p = l; p + 3 <= l + len; p++)
				if (memcmp(p, " @ ", 3) == 0)
					at = p + 3;
			if (at != NULL) {
				size_t plen = (size_t)(l + len - at);
				const char *colon = memrchr(at, ':', plen);
				size_t flen = colon ? (size_t)(colon - at) : plen;

				if (want == NULL || (strlen(want) == flen && memcmp(at, want, flen) == 0))
					snprintf(pos, poslen, "%.*s", (int)plen, at);
			}
		} else if (!log_noise(l, len)) {
			snprintf(reason, reasonlen, "%.*s", (int)len, l);
		}
		l += len + (nl != NULL);
	}
}

