/* sizeof a kernel type has that type's attributes (Private). */
dtrace:::BEGIN
{
	trace(sizeof (struct task_struct));
}
