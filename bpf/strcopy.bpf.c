/*
 * String functions that build a new string: strjoin(), substr(),
 * toupper(), tolower(), lltostr(), and strlen().  `nb` is the number of
 * bytes of a string (strsize + 1); results go to the work area `w` (see
 * strutil.h), whose first buffer the generated code then uses.
 */
#include "strutil.h"

/* strlen(): the copy measures the string. */
DT_RT u64 dt_rt_strlen(u64 s, u64 nb, u64 w)
{
	return dt_copy_str((char *)w, nb, (const void *)s);
}

/* strjoin(a, b): a, then as much of b as fits. */
DT_RT u64 dt_rt_strjoin(u64 w, u64 a, u64 b, u64 nb)
{
	char *d = (char *)w;
	u64 la = dt_copy_str(d, nb, (const void *)a);

	if (la >= nb)
		la = nb - 1;
	/* d + la has nb bytes of room: the work area holds two buffers. */
	bpf_probe_read_kernel_str(d + la, nb - la, (const void *)b);
	return w;
}

/*
 * substr(s, index[, length]) with DTrace's rules: a negative index counts
 * from the end, a negative length leaves that many characters off the end.
 * flags: bit 0 set when the length was given.
 */
DT_RT u64 dt_rt_substr(u64 w, u64 s, u64 index, u64 length, u64 nb_flags)
{
	char *d = (char *)w;
	u64 nb = nb_flags >> 1;
	__s64 size = (__s64)nb - 1;
	__s64 idx = (__s64)index;
	__s64 rem = (nb_flags & 1) ? (__s64)length : size;
	__s64 len = (__s64)dt_copy_str(d, nb, (const void *)s);

	if (idx < 0) {
		idx += len;
		if (idx < 0 && idx + rem > 0) {
			rem += idx;
			idx = 0;
		}
	}
	if (idx >= len || idx < 0)
		rem = 0;
	else if (rem < 0)
		rem += len - idx;
	else if (idx + rem > size)
		rem = size - idx;
	if (rem <= 0 || idx < 0 || idx >= (__s64)nb) {
		d[0] = '\0';
		return w;
	}
	if (rem > size)
		rem = size;
	bpf_probe_read_kernel_str(d, (u64)rem + 1, (const void *)(s + (u64)idx));
	return w;
}

/* toupper() (upper != 0) and tolower(). */
DT_RT u64 dt_rt_strcase(u64 w, u64 s, u64 nb, u64 upper)
{
	char *d = (char *)w;
	char lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';

	dt_copy_str(d, nb, (const void *)s);
	for (u64 i = 0; i < DT_LOOP_MAX; i++) {
		if (i >= nb)
			break;
		char c = d[i];
		if (c == '\0')
			break;
		if (c >= lo && c <= hi)
			d[i] = (char)(c ^ 0x20);
	}
	return w;
}

/*
 * lltostr(v[, base]), DTrace's rule: digits 0-9a-z; base 10 alone is
 * signed (a minus sign), other bases show the 64-bit pattern; base 16
 * has a "0x" prefix and base 8 a leading 0 (0 is "0x0" and "0").  The
 * caller has checked 2 <= base <= 36.
 */
DT_RT u64 dt_rt_lltostr(u64 w, u64 v, u64 base, u64 nb)
{
	char *d = (char *)w;
	char *t = d + DT_SBUF(nb);	/* digits are built from the end of t */
	int neg = base == 10 && (__s64)v < 0;
	u64 u = neg ? (u64)0 - v : v;
	int p = 68;

	if (base < 2 || base > 36)
		base = 10;
	t[p] = '\0';
	for (int i = 0; i < 64 && u != 0; i++) {
		u64 r = u % base;
		t[--p] = (char)(r < 10 ? '0' + r : 'a' + r - 10);
		u /= base;
	}
	if (v == 0 && base == 16)
		t[--p] = '0';
	if (base == 16)
		t[--p] = 'x';
	if (v == 0 || base == 8 || base == 16)
		t[--p] = '0';
	if (neg)
		t[--p] = '-';
	bpf_probe_read_kernel_str(d, nb, t + p);
	return w;
}
