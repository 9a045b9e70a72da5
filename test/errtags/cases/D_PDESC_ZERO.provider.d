/* A provider that does not exist. */
nosuchprovider:::
{
}
