#pragma D option bufsize=1m
