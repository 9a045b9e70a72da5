/* A decimal long long constant above LLONG_MAX. */
BEGIN
{
	x = 9223372036854775808LL;
}
