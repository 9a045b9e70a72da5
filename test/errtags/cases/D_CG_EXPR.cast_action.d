/* An action hidden from ?: by a cast to void. */
BEGIN
{
	arg0 ? (void)printf("x") : (void)0;
}
