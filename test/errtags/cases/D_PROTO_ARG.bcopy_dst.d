/* bcopy( ) into memory that is not alloca( )'d. */
BEGIN
{
	bcopy("x", (void *)arg0, 1);
}
