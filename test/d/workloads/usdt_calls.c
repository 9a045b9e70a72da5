/*
 * Probes as DTrace's own <sys/sdt.h> writes them: calls of undefined
 * functions __dtrace_<provider>___<probe>, which dtrace -G rewrites into
 * probe sites (see usdt_rewrite.sh), and an is-enabled call.
 */
extern void __dtrace_dtcall___one(unsigned long);
extern void __dtrace_dtcall___eight(unsigned long, unsigned long, unsigned long, unsigned long,
				    unsigned long, unsigned long, unsigned long, unsigned long);
extern int __dtraceenabled_dtcall___one(void);

static void helper(int i)
{
	__dtrace_dtcall___one((unsigned long)i * 10);
}

int main(void)
{
	int on = 0;

	for (int i = 0; i < 2; i++) {
		helper(i);
		__dtrace_dtcall___eight(1, 2, 3, 4, 5, 6, 7, (unsigned long)i);
		on += __dtraceenabled_dtcall___one();
	}
	return on;
}
