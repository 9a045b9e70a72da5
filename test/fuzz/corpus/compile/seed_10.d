BEGIN { this->x = (char)300; this->y = (int64_t)-1; trace(this->x ? this->y : 0); }
