"""
Where D differs from C, in one place.

The differential tester (difftest.py) writes every random expression twice:
as D for dtrace, and as C for the system compiler.  The C side computes
"the same expression" except where D's rules are not C's; each such rule is
written down here, with where it comes from, and implemented here (the C
that each operator becomes, the values D folds constants to, the C helper
functions), and nowhere else.  Where D follows C (what + - * / % & | ^ ~
and the comparisons compute on 64-bit values, && || ! ?: evaluating only
what they must, the conversion of a value to a type) the C operator is
used as it is.

D's rules:

 1. Registers.  D computes integers in 64-bit registers: the result of an
    operator is the 64-bit result of the operation on its operands' 64-bit
    values, not reduced to the width of the result's type.  A value is
    brought to its type's width (the low bits, sign- or zero-extended) when
    it is loaded from a variable, when it is cast, and when it is stored.
    So with int x = 0x7fffffff, x + 1 is 2147483648 where C (wrapping)
    would give INT_MIN, and (int)(x + 1) is INT_MIN.  This is DTrace's
    integer model ("DTrace internally implements integers with 64-bit
    registers", dtrace-utils), and its own tests depend on it:
    arithmetic/tst.basics.d keeps an int product of 3359232000 before
    dividing it, aggs/tst.neglquant.d writes INT64_MAX as (1 << 63) - 1
    with int operands.  The C side holds every value as a uint64_t.

 2. Types: no integer promotions.  The Dynamic Tracing Guide ("Type
    Conversions"): each integer type has a rank (char < short < int < long
    < long long, an unsigned type just above its signed one), and a binary
    operator's result has the type of higher rank: char + char is a char,
    not C's int.  Unary - ~ + keep their operand's type and a shift has its
    left operand's (DTrace's dt_cook_op1/dt_cook_op2 propagate the operand
    type).  Comparisons, ! && || ^^ are int; a ?: of integers has the
    binary operators' type, except that a ?: whose condition is an integer
    constant is folded as DTrace's parser folds it (dt_node_op3): it is
    the chosen operand, with that operand's own type.  A type decides the signedness of / % >> and
    of comparisons (rules 3-5), and the width a value is printed or stored
    with.

 3. / and % are signed when their result type is, and work on the 64-bit
    values: the quotient is truncated as in C, INT64_MIN / -1 is INT64_MIN
    and INT64_MIN % -1 is 0 (C: undefined).  A zero divisor faults: DTrace
    reports the error and the clause stops (the Guide, "Arithmetic
    Operators"); a divisor that is the constant 0 is the compile error
    D_DIV_ZERO.  The C side longjmp()s out of the expression (d_fault);
    the tester writes no constant zero divisor.

 4. Shifts shift the 64-bit value by the count modulo 64, as DTrace's
    parser does when it folds constants (a uintmax_t shift) and its code
    does at run time (a register shift, which BPF defines modulo 64): x <<
    64 is x, x << -1 is x << 63 (C: undefined).  >> is arithmetic when the
    left operand's type is signed (the Guide, "Bitwise Operators"; DTrace's
    parser, unlike its code generator, shifts constants logically: we
    follow the Guide in both).

 5. Comparisons compare the 64-bit values, signed when the common type of
    the operands (rule 2) is signed (DTrace's dt_cg_compare_signed).

 6. A cast to a type T narrower than 64 bits keeps the low bits of T's
    width, sign- or zero-extended as T is signed or not; a cast to a 64-bit
    type keeps the 64-bit value.  On a value its type holds this is C's
    conversion.  On a register wider than its type (rule 1) a widening
    cast does not reduce it to its source type first: (long long)(x + x)
    with int x = 0x40000000 is 0x80000000, as DTrace's code generator
    leaves it.  (DTrace reduces a register only in a cast to a narrower
    type, to one of the same width and other signedness, or from a signed
    type to a wider unsigned one; our casts to a type narrower than 64
    bits always keep its width, which differs only for a register wider
    than the cast's type.)

 7. Constants fold as rules 1-6 compute at run time (DTrace's dt_node_op1,
    dt_node_op2), with one exception from DTrace's parser: negating an
    unsigned constant narrower than 64 bits keeps only its type's width:
    -1U is 0xffffffff, where -x for an unsigned int variable x = 1 is
    0xffffffffffffffff.

 8. Character constants (dt_lex.l and stresc2chr in dt_string.c): the
    characters, escapes decoded by DTrace's rules, are the bytes of an
    integer, the first byte most significant, every byte unsigned: '\\377'
    is 255 (C: -1) and 'abcdefgh' is 0x6162636465666768.  \\' \\? and
    unknown escapes keep their backslash ('\\'' is 0x5c27); \\x reads every
    hex digit and keeps the low byte.  The constant is typed like a decimal
    one (rule 9).  The C side writes the value.

 9. Integer constants (dt_node_int): C's types on LP64 (long and long long
    are both 64 bits), except that a decimal constant without U that fits
    no signed type is an error in D (C: unsigned, with a warning).  The
    tester writes none.

10. ^^ is D's logical exclusive or: (a != 0) != (b != 0), both evaluated.

11. printf("%d", e) prints e at its type's width (rule 2); a (long long)
    cast shows all 64 bits.

12. Strings (string functions do not exist in C): implemented below as
    DTrace documents and implements them (the Guide, "Actions and
    Subroutines"; dtrace-utils' bpf/*.S), on strings of at most strsize
    characters; a result longer than that is cut to strsize characters.
    A string function's integer arguments are converted to the types of
    its prototype (substr(string, int, int), index(string, string, int),
    strchr(string, char), lltostr(int64_t)), as in a call of a C function
    with a prototype.  A NULL string (strchr() or strstr() finding
    nothing) compares below every other string and equal to NULL; reading
    its characters is a fault.
     - substr(s, i, n): a negative i counts from the end; if that is still
       before the start, n shrinks by as much; a negative n leaves -n
       characters off the end; no n: to the end.
     - index(s, t, start): the first position >= start (negative: 0) where
       t is, or -1; rindex: the last position <= start (no start: the
       last; negative: -1).
     - strchr(s, c), strrchr(s, c), strstr(s, t): s from the first (last)
       c, or from where t is, or NULL.  (For c = 0 DTrace's versions
       disagree, NULL or the empty string: the tester never asks.)
     - toupper/tolower change ASCII letters only; lltostr(v) is v in
       decimal; string comparisons compare unsigned bytes (strcmp).

13. x op= y computes x op y with the signedness of x's type (for / % >>),
    and stores the result in x: DTrace gives the assignment x's type
    (dt_assign_common), whose signedness its code generator uses.  C would
    convert both to their common type first.

14. The value of an assignment, and of ++x and --x, is the value stored,
    as in C (DTrace is silent); x++ and x-- are x's value before.
"""

# ---------------------------------------------------------------------------
# Integer types: D spelling, C spelling, size, signedness.

MASK64 = (1 << 64) - 1


class IType:
    def __init__(self, d, c, size, signed):
        self.d, self.c, self.size, self.signed = d, c, size, signed

    @property
    def bits(self):
        return self.size * 8

    @property
    def rank(self):
        # Rule 2: the rank is the width, an unsigned type one above its signed one.
        return self.bits + (0 if self.signed else 1)

    def min(self):
        return -(1 << (self.bits - 1)) if self.signed else 0

    def max(self):
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def wrap(self, v):
        """The value v as this type holds it (modulo 2^bits)."""
        v &= (1 << self.bits) - 1
        if self.signed and v >> (self.bits - 1):
            v -= 1 << self.bits
        return v

    def reg(self, v):
        """A value of this type in a 64-bit register (sign- or zero-extended)."""
        return self.wrap(v) & MASK64

    def __repr__(self):
        return self.d


def _t(d, c, size, signed):
    return IType(d, c, size, signed)


# D's char is signed, as on every platform DTrace runs on.
INT_TYPES = [
    _t('char', 'int8_t', 1, True), _t('unsigned char', 'uint8_t', 1, False),
    _t('short', 'int16_t', 2, True), _t('unsigned short', 'uint16_t', 2, False),
    _t('int', 'int32_t', 4, True), _t('unsigned int', 'uint32_t', 4, False),
    _t('long', 'int64_t', 8, True), _t('unsigned long', 'uint64_t', 8, False),
    _t('long long', 'int64_t', 8, True), _t('unsigned long long', 'uint64_t', 8, False),
    _t('int8_t', 'int8_t', 1, True), _t('uint8_t', 'uint8_t', 1, False),
    _t('int16_t', 'int16_t', 2, True), _t('uint16_t', 'uint16_t', 2, False),
    _t('int32_t', 'int32_t', 4, True), _t('uint32_t', 'uint32_t', 4, False),
    _t('int64_t', 'int64_t', 8, True), _t('uint64_t', 'uint64_t', 8, False),
]
T = {t.d: t for t in INT_TYPES}
INT = T['int']
SIZE_T = T['unsigned long']
I64 = T['long long']

# ---------------------------------------------------------------------------
# Rule 2: the types of D's integer operators.

COMPARISONS = ('<', '<=', '>', '>=', '==', '!=')
LOGICAL = ('&&', '||', '^^')


def arith_type(a, b):
    """The usual arithmetic conversions without integer promotion."""
    return a if a.rank >= b.rank else b


def unary_type(op, a):
    return INT if op == '!' else a


def binary_type(op, a, b):
    if op in COMPARISONS or op in LOGICAL:
        return INT
    if op in ('<<', '>>'):
        return a
    return arith_type(a, b)


def op_signed(op, at, bt):
    """Whether / % >> or a comparison works signed (rules 3-5)."""
    if op in ('<<', '>>'):
        return at.signed
    return arith_type(at, bt).signed


# ---------------------------------------------------------------------------
# Rules 8 and 9: constants.

def int_const_type(value, decimal, suffix):
    """The type D gives an integer constant (None: it has none, rule 9)."""
    u = 'u' in suffix.lower()
    longs = suffix.lower().count('l')
    cands = []
    if not u and longs == 0:
        cands.append(T['int'])
    if (u or not decimal) and longs == 0:
        cands.append(T['unsigned int'])
    if not u and longs <= 1:
        cands.append(T['long'])
    if (u or not decimal) and longs <= 1:
        cands.append(T['unsigned long'])
    if not u:
        cands.append(T['long long'])
    if u or not decimal:
        cands.append(T['unsigned long long'])
    for t in cands:
        if value <= t.max():
            return t
    return None


def escape_decode(body):
    """DTrace's stresc2chr: the bytes a string or character body stands for."""
    out = bytearray()
    i, n = 0, len(body)
    simple = {'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11, '"': 34, '\\': 92}
    while i < n:
        c = body[i]
        i += 1
        if c != '\\':
            out += c.encode('latin-1')
            continue
        if i >= n:
            break
        c = body[i]
        i += 1
        if c in simple:
            out.append(simple[c])
        elif c == 'x':
            v = 0
            while i < n and body[i] in '0123456789abcdefABCDEF':
                v = (v * 16 + int(body[i], 16)) & 0xff
                i += 1
            out.append(v)
        elif c in '01234567':
            v = int(c)
            for _ in range(2):
                if i < n and body[i] in '01234567':
                    v = v * 8 + int(body[i])
                    i += 1
            out.append(v & 0xff)
        else:
            out += b'\\' + c.encode('latin-1')
    return bytes(out)


def char_const_value(body):
    """Rule 8: the value of a character constant (None if too long)."""
    b = escape_decode(body)
    if not b or len(b) > 8:
        return None
    return int.from_bytes(b, 'big')


# ---------------------------------------------------------------------------
# Rule 7: what D folds constant expressions to.  Values are 64-bit
# registers (Python ints in [0, 2^64)); None means the compile fails.

def _s64(v):
    return v - (1 << 64) if v >> 63 else v


def _divmod(op, a, b, signed):
    if b == 0:
        return None
    if signed:
        a, b = _s64(a), _s64(b)
        if a == -(1 << 63) and b == -1:
            return a & MASK64 if op == '/' else 0
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return (q if op == '/' else a - q * b) & MASK64
    return a // b if op == '/' else a % b


def fold_unary(op, t, a):
    if op == '!':
        return int(a == 0)
    if op == '+':
        return a
    if op == '~':
        return ~a & MASK64
    v = -a & MASK64
    if not t.signed and t.size < 8:
        v &= (1 << t.bits) - 1      # rule 7
    return v


def fold_binary(op, at, a, bt, b):
    """a op b on registers a, b of types at, bt (rules 1 and 3-5)."""
    if op in LOGICAL:
        a, b = a != 0, b != 0
        return int({'&&': a and b, '||': a or b, '^^': a != b}[op])
    signed = op_signed(op, at, bt)
    if op in COMPARISONS:
        if signed:
            a, b = _s64(a), _s64(b)
        return int({'<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b,
                    '==': a == b, '!=': a != b}[op])
    if op in ('/', '%'):
        return _divmod(op, a, b, signed)
    if op == '<<':
        return (a << (b & 63)) & MASK64
    if op == '>>':
        return ((_s64(a) if signed else a) >> (b & 63)) & MASK64
    return {'+': a + b, '-': a - b, '*': a * b, '&': a & b, '|': a | b,
            '^': a ^ b}[op] & MASK64


def fold_cast(t, a):
    return t.reg(a)                  # rule 6


# ---------------------------------------------------------------------------
# The C side of run-time operators: every operand is a C expression of type
# uint64_t (a register, rule 1), and so is the result.

def c_var(t, name):
    return '((uint64_t)(%s)%s)' % (t.c, name)


def c_const(v):
    return '((uint64_t)0x%xULL)' % (v & MASK64)


def c_unary(op, t, a):
    if op == '-':
        return '(0 - %s)' % a
    if op == '~':
        return '(~%s)' % a
    if op == '+':
        return a
    if op == '!':
        return '((uint64_t)(%s == 0))' % a
    raise ValueError(op)


def c_binary(op, at, a, bt, b):
    """a op b for registers a and b of D types at and bt."""
    if op in ('&&', '||'):
        return '((uint64_t)(%s != 0 %s %s != 0))' % (a, op, b)
    if op == '^^':                                            # rule 10
        return '((uint64_t)((%s != 0) != (%s != 0)))' % (a, b)
    signed = op_signed(op, at, bt)
    if op in COMPARISONS:                                     # rule 5
        if signed:
            return '((uint64_t)((int64_t)%s %s (int64_t)%s))' % (a, op, b)
        return '((uint64_t)(%s %s %s))' % (a, op, b)
    if op == '<<':                                            # rule 4
        return '(%s << (%s & 63))' % (a, b)
    if op == '>>':
        if signed:
            return '((uint64_t)((int64_t)%s >> (%s & 63)))' % (a, b)
        return '(%s >> (%s & 63))' % (a, b)
    if op in ('/', '%'):                                      # rule 3
        return 'd_%s%s(%s, %s)' % ('s' if signed else 'u', 'div' if op == '/' else 'mod', a, b)
    return '(%s %s %s)' % (a, op, b)                          # rule 1


def c_cond(c, a, b):
    return '(%s ? %s : %s)' % (c, a, b)


def c_cast(t, a):                                             # rule 6
    return '((uint64_t)(%s)%s)' % (t.c, a)


def c_print(t, a, width):
    """The value printed: at t's width (rule 11), or all 64 bits."""
    if width:
        return '(%s)(%s)%s' % ('long long' if t.signed else 'unsigned long long', t.c, a)
    return '(%s)%s' % ('long long' if t.signed else 'unsigned long long', a)


# ---------------------------------------------------------------------------
# The C prelude: faults (rule 3) and D's string functions (rule 12).

C_PRELUDE = r'''
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static jmp_buf d_jb;

/* Rule 3: the clause stops; the tester reports a fault. */
static void d_fault(void)
{
	longjmp(d_jb, 1);
}

static uint64_t d_sdiv(uint64_t a, uint64_t b)
{
	if (b == 0)
		d_fault();
	if ((int64_t)a == INT64_MIN && (int64_t)b == -1)
		return a;
	return (uint64_t)((int64_t)a / (int64_t)b);
}

static uint64_t d_smod(uint64_t a, uint64_t b)
{
	if (b == 0)
		d_fault();
	if ((int64_t)a == INT64_MIN && (int64_t)b == -1)
		return 0;
	return (uint64_t)((int64_t)a % (int64_t)b);
}

static uint64_t d_udiv(uint64_t a, uint64_t b)
{
	if (b == 0)
		d_fault();
	return a / b;
}

static uint64_t d_umod(uint64_t a, uint64_t b)
{
	if (b == 0)
		d_fault();
	return a % b;
}
'''

C_STRINGS = r"""
/* Rule 12: D's strings; STRSZ is the program's strsize. */
static char d_pool[8192][STRSZ + 1];
static unsigned d_pooln;

static char *d_buf(void)
{
	return d_pool[d_pooln++ % 8192];
}

/* A NULL string's characters: the read of address 0 faults. */
static const char *d_str(const char *s)
{
	if (s == NULL)
		d_fault();
	return s;
}

static int64_t d_len(const char *s)
{
	size_t n = strlen(d_str(s));
	return n > STRSZ ? STRSZ : (int64_t)n;
}

static const char *d_cut(const char *s, int64_t from, int64_t n)
{
	char *d = d_buf();
	if (n > STRSZ)
		n = STRSZ;
	if (n < 0)
		n = 0;
	memcpy(d, s + from, (size_t)n);
	d[n] = '\0';
	return d;
}

static const char *d_strjoin(const char *a, const char *b)
{
	int64_t la = d_len(a), lb = d_len(b);
	char *d = d_buf();
	if (la + lb > STRSZ)
		lb = STRSZ - la;
	memcpy(d, a, (size_t)la);
	memcpy(d + la, b, (size_t)lb);
	d[la + lb] = '\0';
	return d;
}

static const char *d_substr(const char *s, uint64_t ri, uint64_t rn, int given)
{
	int64_t len = d_len(s);
	int64_t idx = (int32_t)ri, rem = given ? (int32_t)rn : STRSZ;
	if (idx < 0) {
		idx += len;
		if (idx < 0 && idx + rem > 0) {
			rem += idx;
			idx = 0;
		}
	}
	if (idx >= len || idx < 0)
		rem = 0;
	else if (rem < 0)
		rem += len - idx;
	if (rem > len - idx)
		rem = len - idx;
	return d_cut(s, idx < 0 ? 0 : idx, rem);
}

static const char *d_case(const char *s, int upper)
{
	int64_t len = d_len(s);
	char *d = d_buf();
	for (int64_t i = 0; i < len; i++) {
		char c = s[i];
		if (upper && c >= 'a' && c <= 'z')
			c -= 32;
		else if (!upper && c >= 'A' && c <= 'Z')
			c += 32;
		d[i] = c;
	}
	d[len] = '\0';
	return d;
}

static const char *d_lltostr(uint64_t v)
{
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
	return d_cut(tmp, 0, (int64_t)strlen(tmp));
}

static int d_match(const char *s, int64_t at, const char *t, int64_t tlen)
{
	return memcmp(s + at, t, (size_t)tlen) == 0;
}

static uint64_t d_index(const char *s, const char *t, uint64_t rstart, int given, int rev)
{
	int64_t slen = d_len(s), tlen = d_len(t), maxi = slen - tlen;
	int64_t start = (int32_t)rstart;
	if (maxi < 0)
		return (uint64_t)-1;
	if (!rev) {
		if (!given || start < 0)
			start = 0;
		for (int64_t i = start; i <= maxi; i++)
			if (d_match(s, i, t, tlen))
				return (uint64_t)i;
		return (uint64_t)-1;
	}
	if (!given)
		start = maxi;
	if (start < 0)
		return (uint64_t)-1;
	if (start > maxi)
		start = maxi;
	for (int64_t i = start; i >= 0; i--)
		if (d_match(s, i, t, tlen))
			return (uint64_t)i;
	return (uint64_t)-1;
}

static const char *d_strchr(const char *s, uint64_t c, int rev)
{
	int64_t len = d_len(s), at = -1;
	for (int64_t i = 0; i < len; i++) {
		if (s[i] == (char)c) {
			at = i;
			if (!rev)
				break;
		}
	}
	return at < 0 ? NULL : d_cut(s, at, len - at);
}

static const char *d_strstr(const char *s, const char *t)
{
	int64_t i = (int64_t)d_index(s, t, 0, 0, 0);
	return i < 0 ? NULL : d_cut(s, i, d_len(s) - i);
}

/* Comparisons: NULL only equals NULL and is below any string. */
static int d_strcmp(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	int r = strcmp(a, b);
	return (r > 0) - (r < 0);
}
"""


STR = IType('string', 'const char *', 0, False)


def c_strlit(data):
    """A C string literal for bytes (octal escapes: no hex run-on)."""
    return '"' + ''.join('\\%03o' % b for b in data) + '"'


def c_strfn(fn, args, given=False):
    """The C of a string function (rule 12) on C arguments."""
    if fn == 'strjoin':
        return 'd_strjoin(%s, %s)' % tuple(args)
    if fn == 'substr':
        if len(args) == 2:
            return 'd_substr(%s, %s, 0, 0)' % tuple(args)
        return 'd_substr(%s, %s, %s, 1)' % tuple(args)
    if fn in ('toupper', 'tolower'):
        return 'd_case(%s, %d)' % (args[0], fn == 'toupper')
    if fn == 'lltostr':
        return 'd_lltostr(%s)' % args[0]
    if fn in ('strchr', 'strrchr'):
        return 'd_strchr(%s, %s, %d)' % (args[0], args[1], fn == 'strrchr')
    if fn == 'strstr':
        return 'd_strstr(%s, %s)' % tuple(args)
    if fn == 'strlen':
        return '((uint64_t)d_len(%s))' % args[0]
    if fn in ('index', 'rindex'):
        start = args[2] if len(args) == 3 else '0'
        return 'd_index(%s, %s, %s, %d, %d)' % (args[0], args[1], start, len(args) == 3,
                                                fn == 'rindex')
    raise ValueError(fn)


def c_strcmp(op, a, b):
    return '((uint64_t)(d_strcmp(%s, %s) %s 0))' % (a, b, op)
