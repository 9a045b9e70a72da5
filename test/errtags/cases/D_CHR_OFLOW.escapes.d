/* Nine characters written as escapes. */
BEGIN
{
	x = '\101\102\103\104\105\106\107\110\111';
}
