/* A decimal constant that fits no signed type (it has no u suffix). */
BEGIN
{
	x = 18446744073709551615;
}
