/*
 * The D library: what DTrace defines for every D program.  Loaded when a
 * program names something it does not define itself.
 */
inline int NULL = 0;

/* Networking (DTrace's net.d and ip.d). */
typedef uint32_t ipaddr_t;
inline int AF_INET = 2;
inline int AF_INET6 = 10;
inline int ARPHRD_ETHER = 1;
inline int ARPHRD_INFINIBAND = 32;
