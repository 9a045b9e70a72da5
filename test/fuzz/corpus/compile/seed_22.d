BEGIN { setopt("quiet"); setopt("aggsortkey", "1"); ftruncate(); exit(0); }
