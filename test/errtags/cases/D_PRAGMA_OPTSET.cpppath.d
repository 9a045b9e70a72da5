/* #pragma D option setting cpppath: only before compiling (command line). */
#pragma D option cpppath=/usr/bin/cpp
BEGIN
{
}
