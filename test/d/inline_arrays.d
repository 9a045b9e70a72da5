/* Inline arrays: parameters bound to each reference's keys, nested uses, strings, translations. */
#pragma D option quiet

inline int add[int x, int y] = x + y;
inline int twice[int x] = add[x, x];
inline string pick[int i, string a, string b] = i ? a : b;
inline uint64_t big[uint32_t v] = (uint64_t)v << 32;

BEGIN
{
	printf("%d %d %d\n", add[1, 2], twice[21], add[add[1, 1], twice[2]]);
	printf("%s %s\n", pick[1, "yes", "no"], pick[0, "yes", "no"]);
	printf("%x\n", big[0xffffffff]);
	x = 5;
	printf("%d\n", add[x, x * 2]);
	exit(0);
}
