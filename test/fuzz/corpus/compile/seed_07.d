syscall::read:entry /pid == $1/ { self->ts = timestamp; } syscall::read:return /self->ts/ { @[execname] = quantize(timestamp - self->ts); self->ts = 0; }
