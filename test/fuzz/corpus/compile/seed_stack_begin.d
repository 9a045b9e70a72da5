/*
 * BEGIN runs from the consumer: no kernel stack (stack() prints its blank
 * line only), caller and stackdepth 0; stack(n) cut to maxframes; ustack()
 * there is the consumer's own, not checked here.
 */
#pragma D option quiet
#pragma D option maxframes=5

BEGIN
{
	stack();
	stack(100);
	printf("[%d %d]\n", caller, stackdepth);
	@[stack()] = count();
	@[stack(3)] = count();
	printa("%k|%@d\n", @);
	exit(0);
}
