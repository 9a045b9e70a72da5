/* Fault codes, DTrace's DTRACEFLT_* (the ERROR probe's arg4; src/base/abi.h). */
inline int DTRACEFLT_UNKNOWN = 0;	/* Unknown fault */
inline int DTRACEFLT_BADADDR = 1;	/* Bad address */
inline int DTRACEFLT_BADALIGN = 2;	/* Bad alignment */
inline int DTRACEFLT_ILLOP = 3;		/* Illegal operation */
inline int DTRACEFLT_DIVZERO = 4;	/* Divide-by-zero */
inline int DTRACEFLT_NOSCRATCH = 5;	/* Out of scratch space */
inline int DTRACEFLT_KPRIV = 6;		/* Illegal kernel access */
inline int DTRACEFLT_UPRIV = 7;		/* Illegal user access */
inline int DTRACEFLT_TUPOFLOW = 8;	/* Tuple stack overflow */
inline int DTRACEFLT_BADSTACK = 9;	/* Bad stack */
inline int DTRACEFLT_LIBRARY = 1000;	/* Library-level fault */
