/*
 * The D library: what DTrace defines for every D program.  Loaded when a
 * program names something it does not define itself.
 */
inline void *NULL = (void *)0;
