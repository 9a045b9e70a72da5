/* An integer subscripted (that is, *(pid + 0)). */
BEGIN
{
	x = pid[0];
}
