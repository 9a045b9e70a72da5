/* lockstat's rw-* probes: the kind of hold (DTrace's lockstat.d). */
inline int RW_WRITER = 0;
inline int RW_READER = 1;
