/* A provider name of digits only (a macro argument), so no provider part. */
$1:::entry
{
}
