/* Macro arguments and macro variables, substituted while lexing. */
#include "compiler/macros.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/core.h"
#include "base/proc.h"
#include "compiler/compiler.h"
#include "compiler/lexer.h"
#include "compiler/pcb.h"

const char *dt_macro_arg(struct dt_pcb *pcb, int n, const char *text, int line)
{
	if (n < 0 || n >= pcb->argc) {
		if (!pcb->cc->core->opts.defaultargs)
			dt_cerror(pcb, "D_MACRO_UNDEF", line, "macro argument %s is not defined",
				  text);
		return text[1] == '$' ? "" : "0";
	}
	if (pcb->argref != NULL)
		pcb->argref[n] = true;
	return pcb->argv[n];
}

static bool is_ident_text(const char *v)
{
	if (!(isalpha((unsigned char)*v) || *v == '_' || *v == '`'))
		return false;
	for (v++; *v; v++) {
		if (!(isalnum((unsigned char)*v) || *v == '_' || *v == '`'))
			return false;
	}
	return true;
}

/* An integer as the lexer would read it, with an optional sign. */
static bool is_int_text(const char *v)
{
	if (*v == '+' || *v == '-')
		v++;
	if (!isdigit((unsigned char)*v))
		return false;
	char *end;
	errno = 0;
	strtoull(v, &end, 0);
	while (*end && strchr("uUlL", *end))
		end++;
	return *end == '\0';
}

void dt_macro_token(struct dt_pcb *pcb, const char *v, const char *text, int line,
		    struct dt_token *t)
{
	if (is_int_text(v)) {
		bool neg = *v == '-';
		if (*v == '+' || *v == '-')
			v++;
		char *end;
		errno = 0;
		uint64_t x = strtoull(v, &end, 0);
		if (errno == ERANGE)
			dt_cerror(pcb, "D_MACRO_OFLOW", line,
				  "macro argument %s constant %s results in integer overflow", text,
				  v);
		t->tok = T_INT;
		t->ival = neg ? (uint64_t)-(int64_t)x : x;
		snprintf(t->isuffix, sizeof(t->isuffix), "%.3s", end);
		t->idecimal = *v != '0';
		return;
	}
	if (is_ident_text(v)) {
		t->tok = T_IDENT;
		t->sval = dt_pstrdup(pcb, v);
		return;
	}
	size_t len = strlen(v);
	t->tok = T_STRING;
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"')
		t->sval = dt_pstrndup(pcb, v + 1, len - 2);
	else
		t->sval = dt_pstrdup(pcb, v);
	dt_str_unescape(t->sval, &t->slen);
}

bool dt_macro_var_defined(const char *name)
{
	static const char *const names[] = { "egid", "euid", "gid", "pgid", "pid", "ppid",
					     "projid", "sid", "target", "taskid", "uid" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

int64_t dt_macro_var(struct dt_pcb *pcb, const char *name, const char *text, int line)
{
	struct dt_compiler *cc = pcb->cc;

	if (strcmp(name, "target") == 0)
		return cc->procs->target_pid;
	if (strcmp(name, "pid") == 0)
		return getpid();
	if (strcmp(name, "ppid") == 0)
		return getppid();
	if (strcmp(name, "uid") == 0)
		return getuid();
	if (strcmp(name, "gid") == 0)
		return getgid();
	if (strcmp(name, "euid") == 0)
		return geteuid();
	if (strcmp(name, "egid") == 0)
		return getegid();
	if (strcmp(name, "sid") == 0)
		return getsid(0);
	if (strcmp(name, "pgid") == 0)
		return getpgid(0);
	if (strcmp(name, "projid") == 0 || strcmp(name, "taskid") == 0)
		return 0;
	dt_cerror(pcb, "D_MACRO_UNDEF", line, "macro variable %s is not defined", text);
}

void dt_macro_check_unused(struct dt_pcb *pcb)
{
	/* DTrace checks only the last argument, and not at all with -x argref. */
	int last = pcb->argc - 1;

	if (last < 1 || pcb->cc->core->opts.argref || (pcb->argref != NULL && pcb->argref[last]))
		return;
	dt_cerror(pcb, "D_MACRO_UNUSED", 0, "extraneous argument '%s' ($%d is not referenced)",
		  pcb->argv[last], last);
}

static int hexval(int c)
{
	if (isdigit(c))
		return c - '0';
	return tolower(c) - 'a' + 10;
}

void dt_str_unescape(char *s, size_t *lenp)
{
	char *o = s;
	const char *i = s;

	while (*i) {
		if (*i != '\\') {
			*o++ = *i++;
			continue;
		}
		i++;
		switch (*i) {
		case 'n': *o++ = '\n'; i++; break;
		case 't': *o++ = '\t'; i++; break;
		case 'v': *o++ = '\v'; i++; break;
		case 'b': *o++ = '\b'; i++; break;
		case 'r': *o++ = '\r'; i++; break;
		case 'f': *o++ = '\f'; i++; break;
		case 'a': *o++ = '\a'; i++; break;
		case '\\': *o++ = '\\'; i++; break;
		case '"': *o++ = '"'; i++; break;
		case 'x':
			if (isxdigit((unsigned char)i[1])) {
				int v = 0;
				i++;
				for (int k = 0; k < 2 && isxdigit((unsigned char)*i); k++)
					v = v * 16 + hexval((unsigned char)*i++);
				*o++ = (char)v;
			} else {
				*o++ = 'x';
				i++;
			}
			break;
		case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
			int v = 0;
			for (int k = 0; k < 3 && *i >= '0' && *i <= '7'; k++)
				v = v * 8 + (*i++ - '0');
			*o++ = (char)v;
			break;
		}
		case '\0':
			*o++ = '\\';
			break;
		default:
			*o++ = *i++;
			break;
		}
	}
	*o = '\0';
	if (lenp)
		*lenp = (size_t)(o - s);
}
