#pragma D option quiet
