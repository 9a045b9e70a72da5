BEGIN { x[1, "a"] = 1; trace(x[1, "a"]); self->y["k"] = 2; trace(self->y["k"]); }
