/*
 * Record actions that act rather than print: exit(), clear(), trunc(),
 * normalize(), denormalize(), setopt().  Shared by the text and the JSON
 * output; each reports its own failure (report.h) the way DTrace does.
 */
#ifndef DT_REC_ACTIONS_H
#define DT_REC_ACTIONS_H

struct dt_consumer;
struct dt_ritem;

/* Apply the action of item `it` of the record at `data` (a no-op for other kinds). */
void dt_rec_act(struct dt_consumer *cs, const struct dt_ritem *it, const char *data);

/* setopt()'s option name and value (NULL when it has none) in item `it` of the record at `data`. */
void dt_rec_setopt_args(const struct dt_ritem *it, const char *data, const char **name,
			const char **val);

/* Handle a record in JSON mode (json_out.c): 0 or a negative errno to stop. */
int dt_json_record_out(struct dt_consumer *cs, const void *data);

#endif
