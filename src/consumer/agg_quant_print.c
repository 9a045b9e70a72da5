/*
 * quantize(), lquantize() and llquantize() histograms as DTrace prints
 * them (dt_consume.c: dt_print_quantline, dt_print_quantize,
 * dt_print_lquantize, dt_print_llquantize): the header, the rows it
 * chooses (trimmed to the buckets with data plus one zero row on each
 * side), the labels, and bars of '@' scaled to the sum of |counts|.
 */
#include "consumer/agg_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/quant.h"

#define BAR 40

static long double absl(long double x)
{
	return x < 0 ? -x : x;
}

static unsigned bar_depth(int64_t val, long double total, unsigned len)
{
	long double f = absl((long double)val) * len / total;
	unsigned depth = (unsigned)(f + 0.5L);

	return depth > len ? len : depth;
}

/*
 * Positive counts draw right of the '|', negative ones left of it; with
 * both, each side gets half the width.  The count is divided by normal.
 */
static void quantline(struct dt_strbuf *out, int64_t val, uint64_t normal, long double total,
		      bool positives, bool negatives)
{
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	static const char spaces[] = "                                        ";
	long long n = dt_aggval_normal(val, normal);
	unsigned depth;

	if (!negatives) {
		depth = positives ? bar_depth(val, total, BAR) : 0;
		dt_sb_printf(out, "|%s%s %-9lld\n", ats + BAR - depth, spaces + depth, n);
		return;
	}
	if (!positives) {
		depth = bar_depth(val, total, BAR);
		dt_sb_printf(out, "%s%s| %-9lld\n", spaces + depth, ats + BAR - depth, n);
		return;
	}
	const unsigned half = BAR / 2;
	const char *hats = ats + half, *hspaces = spaces + half;

	depth = bar_depth(val, total, half);
	if (val <= 0)
		dt_sb_printf(out, "%s%s|%*s %-9lld\n", hspaces + depth, hats + half - depth,
			     (int)half, "", n);
	else
		dt_sb_printf(out, "%20s|%s%s %-9lld\n", "", hats + half - depth, hspaces + depth, n);
}

static void header(struct dt_strbuf *out)
{
	dt_sb_printf(out, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		     "count");
}

struct span {
	int first, last;
	long double total;
	bool positives, negatives;
};

static void tally(const int64_t *b, struct span *sp)
{
	sp->total = 0;
	sp->positives = sp->negatives = false;
	for (int i = sp->first; i <= sp->last; i++) {
		sp->positives |= b[i] > 0;
		sp->negatives |= b[i] < 0;
		sp->total += absl((long double)b[i]);
	}
}

/* The buckets with data plus one on each side, or `empty` when all are 0. */
static void trim(const int64_t *b, int nbins, int empty_first, int empty_last, struct span *sp)
{
	int first = 0, last = nbins - 1;

	while (first <= last && b[first] == 0)
		first++;
	if (first > last) {
		first = empty_first;
		last = empty_last;
	} else {
		if (first > 0)
			first--;
		while (last > 0 && b[last] == 0)
			last--;
		if (last < nbins - 1)
			last++;
	}
	sp->first = first;
	sp->last = last;
	tally(b, sp);
}

void dt_agg_print_quantize(struct dt_strbuf *out, const int64_t *b, uint64_t normal)
{
	struct span sp;

	/* Without data (negative increments can cancel out), the rows around 0. */
	trim(b, DT_QUANTIZE_NBUCKETS, DT_QUANTIZE_ZERO - 1, DT_QUANTIZE_ZERO + 1, &sp);
	header(out);
	for (int i = sp.first; i <= sp.last; i++) {
		dt_sb_printf(out, "%16lld ", dt_quantize_bucket_value((unsigned)i));
		quantline(out, b[i], normal, sp.total, sp.positives, sp.negatives);
	}
}

/* DTrace's int arithmetic on the 32-bit base, wrapping as it does. */
static int32_t lq_value(int32_t base, int64_t i, int64_t step)
{
	return (int32_t)(uint32_t)((uint32_t)base + (uint32_t)(i * step));
}

void dt_agg_print_lquantize(struct dt_strbuf *out, const struct dt_aggdesc *ad,
			    const int64_t *b, uint64_t normal)
{
	int32_t base = (int32_t)ad->lq_base;
	int64_t step = (uint16_t)ad->lq_step;
	int levels = (uint16_t)ad->lq_levels;
	struct span sp;

	trim(b, levels + 2, 0, 2, &sp);
	header(out);
	for (int i = sp.first; i <= sp.last; i++) {
		char c[32];

		if (i == 0) {
			snprintf(c, sizeof(c), "< %d", base);
			dt_sb_printf(out, "%16s ", c);
		} else if (i == levels + 1) {
			snprintf(c, sizeof(c), ">= %d", lq_value(base, levels, step));
			dt_sb_printf(out, "%16s ", c);
		} else {
			dt_sb_printf(out, "%16d ", lq_value(base, i - 1, step));
		}
		quantline(out, b[i], normal, sp.total, sp.positives, sp.negatives);
	}
}

/* ---- llquantize ---------------------------------------------------------- */

#define CWIDTH 16	/* label buffer: DTrace cuts labels to 15 characters */

struct labels {
	char *c;
	int first, last, pad;
};

static void label(struct labels *l, int bin, const char *fmt, unsigned long long v)
{
	if (bin >= l->first - l->pad && bin <= l->last + l->pad)
		snprintf(l->c + CWIDTH * (bin - l->first + l->pad), CWIDTH, fmt, v);
}

static unsigned long long upow(unsigned factor, unsigned n)
{
	unsigned long long p = 1;

	for (unsigned i = 0; i < n; i++)
		p *= factor;
	return p;
}

/* Every bucket's label: bucket bin0 +/- i is the i-th bucket from the middle. */
static void llq_labels(struct labels *l, int factor, int lmag, int hmag, int steps, int bin0,
		       int nbins)
{
	int sf = steps / factor, mag = lmag, i = 1;
	unsigned long long scale = upow((unsigned)factor, (unsigned)lmag);

	/* "abs() < 1" is better written "0"; no negative data: no "abs()". */
	if (scale == 1)
		label(l, bin0, "%llu", 0);
	else if (l->first >= bin0)
		label(l, bin0, "< %llu", scale);
	else
		label(l, bin0, "abs() < %llu", scale);
	label(l, bin0 - 1, "-%llu", scale);
	label(l, bin0 + 1, "%llu", scale);
	if (lmag == 0 && steps > factor) {
		/* 1 .. factor-1 take every steps/factor-th bucket of magnitude 0 */
		for (int step = 2; step <= factor; step++) {
			i += sf;
			label(l, bin0 - i, "-%llu", (unsigned long long)step);
			label(l, bin0 + i, "%llu", (unsigned long long)step);
		}
		mag++;
	}
	scale = upow((unsigned)factor, (unsigned)mag + 1) / (unsigned)steps;
	for (; mag <= hmag; mag++) {
		for (int step = sf + 1; step <= steps; step++) {
			i++;
			label(l, bin0 - i, "-%llu", (unsigned long long)step * scale);
			label(l, bin0 + i, "%llu", (unsigned long long)step * scale);
		}
		scale *= (unsigned)factor;
	}
	scale = upow((unsigned)factor, (unsigned)hmag + 1);
	label(l, 0, "<= -%llu", scale);
	label(l, nbins - 1, ">= %llu", scale);
}

/* A first or last row on a ghost bucket borrows the nearest label outward. */
static void fix_ghost(struct labels *l, int j, int dir)
{
	int i;

	if (l->c[j] != '\0')
		return;
	for (i = 1; i < l->pad; i++)
		if (l->c[j + dir * CWIDTH * i] != '\0')
			break;
	if (i < l->pad)
		memcpy(l->c + j, l->c + j + dir * CWIDTH * i, CWIDTH);
}

void dt_agg_print_llquantize(struct dt_strbuf *out, const struct dt_aggdesc *ad,
			     const int64_t *b, uint64_t normal)
{
	int factor = ad->llq_factor, lmag = ad->llq_lmag, hmag = ad->llq_hmag;
	int steps = ad->llq_steps;
	int bin0 = (int)dt_llquantize_underflow(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						ad->llq_steps);
	int nbins = (int)dt_llquantize_nbuckets_of(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						   ad->llq_steps);
	struct span sp = { .first = 0, .last = nbins - 1 };
	struct labels l;

	while (sp.first <= sp.last && b[sp.first] == 0)
		sp.first++;
	if (sp.first > sp.last) {
		/* at least one row, so that the output is not empty */
		sp.first = sp.last = bin0 + 1;
	} else {
		while (b[sp.last] == 0)
			sp.last--;
	}
	/* The bars scale to the buckets with data, before widening. */
	tally(b, &sp);
	header(out);
	if (sp.first > 0)
		sp.first--;
	if (sp.last < nbins - 1)
		sp.last++;

	l.first = sp.first;
	l.last = sp.last;
	l.pad = lmag == 0 && steps > factor ? steps / factor : 0;
	l.c = calloc((size_t)(sp.last - sp.first + 1 + 2 * l.pad), CWIDTH);
	if (l.c == NULL) {
		out->oom = true;
		return;
	}
	llq_labels(&l, factor, lmag, hmag, steps, bin0, nbins);
	if (l.pad > 0) {
		fix_ghost(&l, CWIDTH * l.pad, -1);
		fix_ghost(&l, CWIDTH * (sp.last - sp.first + l.pad), 1);
	}
	for (int i = sp.first; i <= sp.last; i++) {
		const char *c = l.c + CWIDTH * (i - sp.first + l.pad);

		if (c[0] == '\0')
			continue;	/* a ghost bucket */
		dt_sb_printf(out, "%16s ", c);
		quantline(out, b[i], normal, sp.total, sp.positives, sp.negatives);
	}
	free(l.c);
}
