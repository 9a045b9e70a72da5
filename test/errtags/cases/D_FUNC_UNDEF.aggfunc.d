/* Assigning an aggregation the result of an unknown function. */
BEGIN
{
	@ = f();
}
