/* pid$target with neither -c nor -p ($target is 0). */
pid$target:::entry
{
}
