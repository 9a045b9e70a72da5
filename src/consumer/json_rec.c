/* Records, faults, errors and drops as JSON (json_rec.h). */
#include "consumer/json_rec.h"

#include <string.h>

#include "consumer/json.h"

/* A string that may not be UTF-8: the text, and its bytes in hex if it was not kept. */
static void lossless(struct dt_json *j, const char *key, const char *hexkey, const void *s,
		     size_t n)
{
	dt_json_key(j, key);
	if (!dt_json_string(j, s, n)) {
		dt_json_key(j, hexkey);
		dt_json_hex(j, s, n);
	}
}

static void int_value(struct dt_json *j, const dtrace_datum_t *d)
{
	if (d->is_signed)
		dt_json_int(j, (int64_t)d->value);
	else
		dt_json_uint(j, d->value);
}

static void frames(struct dt_json *j, const char *text)
{
	dt_json_array(j);
	while (text != NULL && *text != '\0') {
		size_t n = strcspn(text, "\n");
		dt_json_string(j, text, n);
		text += n;
		if (*text == '\n')
			text++;
	}
	dt_json_array_end(j);
}

void dt_json_datum_value(struct dt_json *j, const dtrace_datum_t *d)
{
	switch (d->kind) {
	case DTRACE_DATA_INT:
		int_value(j, d);
		break;
	case DTRACE_DATA_STRING:
		dt_json_string(j, d->data, d->size);
		break;
	case DTRACE_DATA_SYMBOL:
		dt_json_cstring(j, d->text);
		break;
	case DTRACE_DATA_STACK:
		frames(j, d->text);
		break;
	default:
		dt_json_hex(j, d->data, d->size);
		break;
	}
}

void dt_json_datum(struct dt_json *j, const dtrace_datum_t *d)
{
	dt_json_object(j);
	dt_json_kstr(j, "type", d->type);
	switch (d->kind) {
	case DTRACE_DATA_INT:
		dt_json_key(j, "value");
		int_value(j, d);
		break;
	case DTRACE_DATA_STRING:
		lossless(j, "value", "hex", d->data, d->size);
		break;
	case DTRACE_DATA_SYMBOL:
		dt_json_kuint(j, "value", d->value);
		dt_json_kstr(j, "symbol", d->text);
		break;
	case DTRACE_DATA_STACK:
		dt_json_key(j, "frames");
		frames(j, d->text);
		break;
	default:
		dt_json_key(j, "hex");
		dt_json_hex(j, d->data, d->size);
		break;
	}
	dt_json_object_end(j);
}

void dt_json_probe(struct dt_json *j, const dtrace_probeinfo_t *pi)
{
	dt_json_object(j);
	dt_json_kuint(j, "id", pi->id);
	dt_json_kstr(j, "provider", pi->provider);
	dt_json_kstr(j, "module", pi->module);
	dt_json_kstr(j, "function", pi->function);
	dt_json_kstr(j, "name", pi->name);
	dt_json_object_end(j);
}

static void action(struct dt_json *j, const dtrace_action_t *a, const struct dt_strbuf *sysout)
{
	dt_json_object(j);
	dt_json_kstr(j, "action", a->name);
	if (a->format != NULL)
		dt_json_kstr(j, "format", a->format);
	if (a->output != NULL)
		lossless(j, a->kind == DTRACE_ACT_SYSTEM ? "command" : "output",
			 a->kind == DTRACE_ACT_SYSTEM ? "command_hex" : "output_hex", a->output,
			 a->outputlen);
	if (sysout != NULL)
		lossless(j, "stdout", "stdout_hex", sysout->s != NULL ? sysout->s : "", sysout->len);
	if (a->naggs > 0) {
		dt_json_key(j, "aggregations");
		dt_json_array(j);
		for (size_t i = 0; i < a->naggs; i++)
			dt_json_cstring(j, a->aggs[i]);
		dt_json_array_end(j);
	}
	if (a->option != NULL) {
		dt_json_kstr(j, "option", a->option);
		dt_json_kstr(j, "value", a->optval);
	}
	if (a->nargs > 0) {
		dt_json_key(j, "args");
		dt_json_array(j);
		for (size_t i = 0; i < a->nargs; i++)
			dt_json_datum(j, &a->args[i]);
		dt_json_array_end(j);
	}
	dt_json_object_end(j);
}

void dt_json_record(struct dt_strbuf *sb, const dtrace_probedata_t *pd,
		    const struct dt_strbuf *const *sysout)
{
	struct dt_json j;

	dt_json_init(&j, sb);
	dt_json_object(&j);
	dt_json_kstr(&j, "event", "probe");
	dt_json_kuint(&j, "timestamp", pd->timestamp);
	dt_json_kuint(&j, "walltimestamp", pd->walltimestamp);
	dt_json_kuint(&j, "cpu", pd->cpu);
	dt_json_key(&j, "probe");
	dt_json_probe(&j, &pd->probe);
	dt_json_key(&j, "actions");
	dt_json_array(&j);
	for (size_t i = 0; i < pd->nactions; i++)
		action(&j, &pd->actions[i], sysout != NULL ? sysout[i] : NULL);
	dt_json_array_end(&j);
	dt_json_object_end(&j);
}

void dt_json_error(struct dt_strbuf *sb, const dtrace_errdata_t *ed)
{
	struct dt_json j;

	dt_json_init(&j, sb);
	dt_json_object(&j);
	if (ed->probe == NULL) {
		dt_json_kstr(&j, "event", "error");
		dt_json_kstr(&j, "message", ed->msg);
		dt_json_object_end(&j);
		return;
	}
	dt_json_kstr(&j, "event", "fault");
	dt_json_kuint(&j, "timestamp", ed->timestamp);
	dt_json_kuint(&j, "cpu", ed->cpu);
	dt_json_key(&j, "probe");
	dt_json_probe(&j, ed->probe);
	dt_json_kuint(&j, "clause", ed->clause);
	dt_json_kstr(&j, "fault", ed->fault_name);
	dt_json_kint(&j, "fault_code", ed->fault);
	dt_json_kuint(&j, "address", ed->addr);
	dt_json_kuint(&j, "pc", ed->pc);
	dt_json_kstr(&j, "message", ed->msg);
	dt_json_object_end(&j);
}

void dt_json_drop(struct dt_strbuf *sb, const dtrace_dropdata_t *dd)
{
	static const char *const kinds[] = { "principal", "aggregation", "dynamic", "speculative",
					     "speculation_busy", "speculation_unavailable", "nested" };
	struct dt_json j;

	dt_json_init(&j, sb);
	dt_json_object(&j);
	dt_json_kstr(&j, "event", "drop");
	dt_json_kstr(&j, "kind", kinds[dd->kind]);
	if (dd->cpu >= 0)
		dt_json_kint(&j, "cpu", dd->cpu);
	dt_json_kuint(&j, "count", dd->drops);
	dt_json_kstr(&j, "tag", dd->tag);
	dt_json_kstr(&j, "message", dd->msg);
	dt_json_object_end(&j);
}
