/* #pragma D attributes lowers a provider's probe names: dtrace:::BEGIN is then below amin. */
#pragma D attributes Private/Private/Unknown provider dtrace name
#pragma D option amin=Evolving/Evolving/Common

dtrace:::BEGIN
{
	trace(1);
}
