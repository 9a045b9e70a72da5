/* print(): a typed object, as DTrace for Linux prints it. */
#ifndef DT_PRINT_TYPE_H
#define DT_PRINT_TYPE_H

struct dt_consumer;
struct dt_strbuf;
struct dt_ritem;

/* The RK_PRINT item it of record rec: the pointer, then the object. */
void dt_print_typed(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
		    const void *rec);

#endif
