BEGIN { trace(inet_ntoa(&(uint32_t)0x7f000001)); trace(htons(1)); trace(ntohl(2)); trace(rand()); }
