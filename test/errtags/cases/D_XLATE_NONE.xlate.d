/* xlate to a type no translator produces. */
struct out {
	int a;
	int b;
};
BEGIN
{
	x = xlate<struct out>(curthread)->a;
}
