#pragma D option strsize=16
