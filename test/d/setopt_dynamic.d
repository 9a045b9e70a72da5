/* setopt() with values computed at run time; flags take yes/no, on/off, numbers. */
#pragma D option quiet
BEGIN
{
	@[1] = sum(10);
	@[2] = sum(20);
	x = "aggsortrev";
	setopt(x);
	printa("%d %@d\n", @);
	setopt(x, "no");
	printa("%d %@d\n", @);
	setopt(strjoin("aggsort", "rev"), lltostr(1));
	printa("%d %@d\n", @);
	setopt(x, "off");
	printa("%d %@d\n", @);
	setopt("nosuchoption", x);
	setopt(x, "maybe");
	exit(0);
}
