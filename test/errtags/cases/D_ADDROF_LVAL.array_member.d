/* Unary & on an array member (an array is no lvalue). */
BEGIN
{
	x = &curthread->comm;
}
