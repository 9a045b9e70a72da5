/*
 * A normalized stddev() as DTrace's dt_stddev computes it: the sum of
 * squares divided by normal twice, the sum by normal once, both by the
 * count; then the integer square root of their difference.
 */
#pragma D option quiet

BEGIN
{
	@sd = stddev(10);
	@sd = stddev(30);
	@neg = stddev(-10);
	@neg = stddev(-30);
	@big = stddev(1000);
	@big = stddev(3000);
	@big = stddev(7000);
	printa("raw %@d\n", @sd);
	normalize(@sd, 2);
	normalize(@neg, 2);
	normalize(@big, 10);
	printa("sd %@d\n", @sd);
	printa("neg %@d\n", @neg);
	printa("big %@d\n", @big);
	printa(@big);
	exit(0);
}
