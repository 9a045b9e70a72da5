/* An inline's value is checked as it is parsed: before a later clause's syntax error. */
inline int answer = "forty-two";

BEGIN
{
	trace(answer)
	trace(1);
}
