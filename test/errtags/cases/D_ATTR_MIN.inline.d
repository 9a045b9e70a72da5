/* An inline #pragma D attributes makes Unstable, used under an Evolving amin. */
#pragma D option amin=Evolving/Evolving/Common

inline int mypid = pid;
#pragma D attributes Unstable/Unstable/Common mypid

dtrace:::BEGIN
{
	trace(mypid + 1);
}
