profile-997 /arg0/ { @[stack()] = count(); } tick-1s { printa("%k %@d\n", @); trunc(@, 10); clear(@); exit(0); }
