/*
 * Option values as DTrace reads them: sizes, rates, the flag words of its
 * run-time options and D version strings.
 */
#include "base/optval.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

/*
 * One number with strtoull's rules (base prefixes, leading blanks and '+'),
 * refused if it is negative: DTrace tests the sign with strtoll first.
 */
static int unsigned_prefix(const char *s, uint64_t *vp, char **endp)
{
	if (strtoll(s, NULL, 0) < 0)
		return -1;
	errno = 0;
	*vp = strtoull(s, endp, 0);
	return errno != 0 ? -1 : 0;
}

int dt_optval_size(const char *s, int64_t *valp)
{
	size_t len = strlen(s);
	uint64_t mul = 1, v;
	char *end;

	/* A suffix is the last character only: "4k", never "4kb". */
	switch (len > 0 ? s[len - 1] : '\0') {
	case 't': case 'T': mul <<= 10; /* fall through */
	case 'g': case 'G': mul <<= 10; /* fall through */
	case 'm': case 'M': mul <<= 10; /* fall through */
	case 'k': case 'K': mul <<= 10; break;
	default: break;
	}
	if (unsigned_prefix(s, &v, &end) < 0)
		return -1;
	if ((mul > 1 && end != &s[len - 1]) || (mul == 1 && *end != '\0'))
		return -1;
	/* DTrace refuses what overflows its signed value; so do we, before multiplying. */
	if (v > (uint64_t)INT64_MAX / mul)
		return -1;
	*valp = (int64_t)(v * mul);
	return 0;
}

int dt_optval_rate(const char *s, int64_t *valp)
{
	static const struct {
		const char *name;
		int64_t mul;	/* 0: a frequency */
	} sfx[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000 },
		{ "sec", 1000000000 }, { "m", 60000000000LL }, { "min", 60000000000LL },
		{ "h", 3600000000000LL }, { "hour", 3600000000000LL },
		{ "d", 86400000000000LL }, { "day", 86400000000000LL }, { "hz", 0 },
	};
	uint64_t v;
	char *end;

	if (unsigned_prefix(s, &v, &end) < 0)
		return -1;
	/* As DTrace, a unit alone ("ms") is a count of zero of that unit. */
	int64_t mul = 1;
	if (*end != '\0') {
		size_t i;
		for (i = 0; i < ARRAY_SIZE(sfx) && strcasecmp(sfx[i].name, end) != 0; i++)
			;
		if (i == ARRAY_SIZE(sfx))
			return -1;
		mul = sfx[i].mul;
	}
	if (mul == 0)
		*valp = v != 0 ? (int64_t)(1000000000ULL / v) : 0;
	else if (v > (uint64_t)(INT64_MAX / mul))
		return -1;	/* DTrace would wrap; a wrong interval is worse than an error */
	else
		*valp = (int64_t)v * mul;
	return 0;
}

int dt_optval_flag(const char *s, int64_t *valp)
{
	static const char *const words[][2] = {
		{ "yes", "no" }, { "enable", "disable" }, { "enabled", "disabled" },
		{ "true", "false" }, { "on", "off" }, { "set", "unset" },
	};
	uint64_t v;
	char *end;

	if (s == NULL) {
		*valp = 0;
		return 1;
	}
	if (*s == '\0') {
		*valp = 0;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		if (strcasecmp(s, words[i][0]) == 0) {
			*valp = 1;
			return 1;
		}
		if (strcasecmp(s, words[i][1]) == 0) {
			*valp = 0;
			return 0;
		}
	}
	if (unsigned_prefix(s, &v, &end) < 0 || *end != '\0' || v > INT64_MAX)
		return -1;
	*valp = (int64_t)v;
	return 1;
}

int dt_optval_version(const char *s, uint32_t *vp)
{
	uint32_t n[3] = { 0, 0, 0 };
	size_t i = 0;

	/* Digits and at most two dots; an empty part counts as 0, as in DTrace. */
	for (; *s != '\0'; s++) {
		if (isdigit((unsigned char)*s)) {
			n[i] = n[i] * 10 + (uint32_t)(*s - '0');
			if (n[i] > DT_VERSION_MINMAX)
				return -1;
		} else if (*s != '.' || i++ >= ARRAY_SIZE(n) - 1) {
			return -1;
		}
	}
	if (n[0] > DT_VERSION_MAJMAX)
		return -1;
	*vp = DT_VERSION_NUMBER(n[0], n[1], n[2]);
	return 0;
}

bool dt_version_defined(uint32_t v)
{
	static const uint32_t defined[] = {
		DT_VERSION_NUMBER(1, 0, 0), DT_VERSION_NUMBER(1, 1, 0),
		DT_VERSION_NUMBER(1, 2, 0), DT_VERSION_NUMBER(1, 2, 1),
		DT_VERSION_NUMBER(1, 2, 2), DT_VERSION_NUMBER(1, 3, 0),
		DT_VERSION_NUMBER(1, 4, 0), DT_VERSION_NUMBER(1, 4, 1),
		DT_VERSION_NUMBER(1, 5, 0), DT_VERSION_NUMBER(1, 6, 0),
		DT_VERSION_NUMBER(1, 6, 1), DT_VERSION_NUMBER(1, 6, 2),
		DT_VERSION_NUMBER(1, 6, 3), DT_VERSION_NUMBER(1, 6, 4),
		DT_VERSION_NUMBER(2, 0, 0),
	};

	for (size_t i = 0; i < ARRAY_SIZE(defined); i++)
		if (defined[i] == v)
			return true;
	return false;
}
