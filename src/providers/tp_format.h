/* A kernel tracepoint's record layout, from its tracefs format file. */
#ifndef DT_TP_FORMAT_H
#define DT_TP_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

struct dt_registry;

struct dt_tp_field {
	uint16_t off, size;
	bool is_signed;
	bool data_loc;		/* __data_loc: a 32-bit (length << 16 | offset) */
	uint32_t nelems;	/* char comm[16]: 16; 0 if not an array */
	char type[96];		/* the C type without the name: "pid_t", "const char *" */
	char name[64];
};

/*
 * The fields of group:event after the common_ ones, in record order (at
 * most max).  Returns how many, or a negative errno.
 */
int dt_tp_format(const char *group, const char *event, struct dt_tp_field *f, int max);

struct dtrace_hdl;
struct dt_type;

/* The D type of a field's C type; an integer of the field's size if D does not know it. */
struct dt_type *dt_tp_field_type(struct dt_registry *reg, const struct dt_tp_field *f);

/* Parse one "field:<decl>;\toffset:N;\tsize:N;\tsigned:N;" line; false if it is not one. */
bool dt_tp_parse_field(const char *line, struct dt_tp_field *f);

#endif
