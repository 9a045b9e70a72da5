#!/usr/bin/env python3
"""
Differential testing of the D compiler's code generator.

Random D expressions (integers of every width and signedness, constants of
every form, casts, unary, binary and conditional operators, sizeof, and
the string functions: strlen strjoin substr index rindex strchr strrchr
strstr lltostr toupper tolower and string comparisons) are evaluated
twice: by dtrace, as BEGIN clauses of one D program, and by a C program
made of the same expressions, built with the system compiler.  Where D's
rules are not C's, the C side follows D's: dsemantics.py says where and
why.  Every value must be the same, and an expression must fault in D
exactly when it faults in C.

A mismatch is reduced to a small expression that still mismatches, and
reported with the seed that reproduces it:

    difftest.py --dtrace build/dtrace --seed 7 --batches 50

Exit status: 0 when everything matched, 1 on a mismatch, 77 when it cannot
run here (not root: dtrace needs BPF; no C compiler).  Refusals allowed
with --tolerate are counted, and fail the run when they are more than
--max-tolerated percent of the expressions: a compiler that refused
everything must not pass for one that computes everything right.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dsemantics as ds  # noqa: E402

STR = ds.STR

# ---------------------------------------------------------------------------
# Expressions.


class Node:
    """
    An expression: kind, D type (ds.STR for strings), operator or function,
    children.  Kinds: var const un bin cond cast sizeof (integers), svar slit
    sfn (strings), ifn scmp (integers from strings).
    """

    def __init__(self, kind, t, op=None, kids=(), value=None, text=None, var=None):
        self.kind, self.t, self.op, self.kids = kind, t, op, list(kids)
        self.value, self.text, self.var = value, text, var

    def size(self):
        return 1 + sum(k.size() for k in self.kids)

    def is_str(self):
        return self.t is STR

    def is_const(self):
        """Whether D folds it to an integer constant (sizeof never evaluates)."""
        k = self.kind
        if k in ('var', 'svar', 'slit', 'sfn', 'ifn', 'scmp'):
            return False
        if k in ('sizeof', 'sizeof_t', 'const'):
            return True
        if k == 'cond':
            if self.is_str() or not self.kids[0].is_const():
                return False
            # D folds a ?: with a constant condition to the branch it picks.
            return self.kids[1 if fold(self.kids[0]) else 2].is_const()
        return all(c.is_const() for c in self.kids)

    def may_null(self):
        if self.kind == 'sfn':
            return self.op in ('strchr', 'strrchr', 'strstr')
        if self.kind == 'cond' and self.is_str():
            return self.kids[1].may_null() or self.kids[2].may_null()
        return False

    def may_fault(self):
        if self.kind == 'sizeof':
            return False
        if self.kind == 'bin' and self.op in ('/', '%') and not self.kids[1].is_const():
            return True
        if self.kind in ('sfn', 'ifn') and any(c.may_null() for c in self.kids):
            return True        # reading a NULL string's characters
        return any(c.may_fault() for c in self.kids)


def d_text(n):
    k = n.kind
    if k in ('var', 'svar'):
        return n.var
    if k == 'const':
        return n.text
    if k == 'slit':
        return '"%s"' % n.text
    if k == 'un':
        return '%s(%s)' % (n.op, d_text(n.kids[0]))
    if k in ('bin', 'scmp'):
        return '(%s %s %s)' % (d_text(n.kids[0]), n.op, d_text(n.kids[1]))
    if k == 'cond':
        return '(%s ? %s : %s)' % tuple(d_text(c) for c in n.kids)
    if k == 'cast':
        return '((%s)%s)' % (n.t.d, d_text(n.kids[0]))
    if k == 'sizeof':
        return 'sizeof (%s)' % d_text(n.kids[0])
    if k == 'sizeof_t':
        return 'sizeof (%s)' % n.text
    if k in ('sfn', 'ifn'):
        return '%s(%s)' % (n.op, ', '.join(d_text(c) for c in n.kids))
    raise ValueError(k)


def c_text(n):
    """
    The C of n: for an integer, a uint64_t expression, D's register
    (dsemantics, rule 1); for a string, a const char *.
    """
    if not n.is_str() and n.is_const():
        return ds.c_const(fold(n))
    k = n.kind
    if k == 'var':
        return ds.c_var(n.t, n.var)
    if k == 'svar':
        return n.var
    if k == 'slit':
        return ds.c_strlit(n.value)
    if k == 'un':
        return ds.c_unary(n.op, n.t, c_text(n.kids[0]))
    if k == 'bin':
        a, b = n.kids
        return ds.c_binary(n.op, a.t, c_text(a), b.t, c_text(b))
    if k == 'cond':
        return ds.c_cond(*(c_text(c) for c in n.kids))
    if k == 'cast':
        return ds.c_cast(n.t, c_text(n.kids[0]))
    if k in ('sfn', 'ifn'):
        return ds.c_strfn(n.op, [c_text(c) for c in n.kids])
    if k == 'scmp':
        return ds.c_strcmp(n.op, c_text(n.kids[0]), c_text(n.kids[1]))
    raise ValueError(k)


def fold(n):
    """
    The 64-bit value D folds a constant expression to (dsemantics, rule 7),
    or None when it refuses it (a zero divisor).
    """
    k = n.kind
    if k == 'const':
        return n.value
    if k == 'sizeof':
        return n.kids[0].t.size
    if k == 'sizeof_t':
        return n.value
    if k == 'cast':
        a = fold(n.kids[0])
        return None if a is None else ds.fold_cast(n.t, a)
    if k == 'cond':
        c = fold(n.kids[0])
        return None if c is None else fold(n.kids[1] if c else n.kids[2])
    if k == 'un':
        a = fold(n.kids[0])
        return None if a is None else ds.fold_unary(n.op, n.t, a)
    a, b = fold(n.kids[0]), fold(n.kids[1])
    if a is None or b is None:
        return None
    return ds.fold_binary(n.op, n.kids[0].t, a, n.kids[1].t, b)


def mk_un(op, a):
    return Node('un', ds.unary_type(op, a.t), op, [a])


def mk_bin(op, a, b):
    if a.is_str():
        return Node('scmp', ds.INT, op, [a, b])
    return Node('bin', ds.binary_type(op, a.t, b.t), op, [a, b])


def mk_cond(c, a, b):
    if a.is_str():
        return Node('cond', STR, None, [c, a, b])
    # A constant condition picks its operand as D parses (dsemantics, rule 2).
    v = fold(c) if not c.is_str() and c.is_const() else None
    if v is not None:
        return Node('cond', (a if v else b).t, None, [c, a, b])
    return Node('cond', ds.arith_type(a.t, b.t), None, [c, a, b])


def mk_cast(t, a):
    return Node('cast', t, None, [a])


def mk_sizeof(a):
    return Node('sizeof', ds.SIZE_T, None, [a])


def mk_fn(fn, args):
    if fn == 'strlen':
        return Node('ifn', ds.SIZE_T, fn, args)
    if fn in ('index', 'rindex'):
        return Node('ifn', ds.INT, fn, args)
    return Node('sfn', STR, fn, args)


def divisor_ok(b):
    """D refuses a divisor that folds to 0 (D_DIV_ZERO)."""
    if not b.is_const():
        return True
    return fold(b) not in (0, None)


# ---------------------------------------------------------------------------
# Random generation.

INTERESTING = [0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 0x7f, 0x80, 0xff,
               0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
               0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
               0xffffffffffffffff, 0xfffffffffffffffe, 0x123456789abcdef0]

BINOPS = ['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^',
          '<', '<=', '>', '>=', '==', '!=', '&&', '||', '^^']
UNOPS = ['-', '~', '!', '+']
SHIFT_COUNTS = [0, 1, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 70, 127, 200]

CHAR_ESCAPES = ['\\n', '\\t', '\\a', '\\b', '\\f', '\\r', '\\v', '\\\\', '\\"',
                "\\'", '\\?', '\\0', '\\q', '\\e']
# String literal pieces: no newline (the output is read by lines).
STR_CHARS = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 -_.,:;!#%&*+=?@[](){}<>/|~^$'
STR_ESCAPES = ['\\t', '\\\\', '\\"', '\\?', "\\'", '\\x41', '\\x4a', '\\101', '\\061', '\\q']


def rand_bits(rng):
    w = rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64])
    return rng.getrandbits(w)


def rand_value(rng, t):
    """A value of type t, often at an edge."""
    r = rng.random()
    if r < 0.4:
        v = rng.choice(INTERESTING)
    elif r < 0.6:
        v = rng.randint(0, 20)
    else:
        v = rand_bits(rng)
    if rng.random() < 0.35:
        v = -v
    return t.wrap(v)


def char_body(rng):
    parts = []
    for _ in range(rng.choice([1, 1, 1, 1, 2, 2, 3, 4, 8])):
        r = rng.random()
        if r < 0.5:
            parts.append(rng.choice('abcdefxyzABZ019 #~%()[]{}"'))
        elif r < 0.7:
            parts.append(rng.choice(CHAR_ESCAPES))
        elif r < 0.85:
            parts.append('\\%o' % rng.randint(0, 0o377))
        else:
            parts.append('\\x%x' % rng.randint(0, 0xff))
    return ''.join(parts)


def str_body(rng, maxlen):
    """The body of a D string literal of at most maxlen characters."""
    parts, n = [], 0
    for _ in range(rng.randint(0, maxlen)):
        p = rng.choice(STR_ESCAPES) if rng.random() < 0.15 else rng.choice(STR_CHARS)
        k = len(ds.escape_decode(p))
        if n + k > maxlen:
            break
        parts.append(p)
        n += k
    return ''.join(parts)


def mk_strlit(body):
    return Node('slit', STR, value=ds.escape_decode(body), text=body)


def rand_const(rng):
    """A constant written in one of D's forms, with its value and type."""
    for _ in range(100):
        form = rng.random()
        if form < 0.15:
            body = char_body(rng)
            v = ds.char_const_value(body)
            if v is None or v > 0x7fffffffffffffff:
                continue
            t = ds.int_const_type(v, True, '')
            return Node('const', t, value=v, text="'%s'" % body)
        v = rand_bits(rng) if rng.random() < 0.4 else rng.choice(INTERESTING + [5, 10, 42])
        suffix = rng.choice(['', '', '', '', 'u', 'U', 'l', 'L', 'ul', 'UL', 'll', 'LL',
                             'ull', 'ULL', 'uL', 'Ul', 'lL', 'uLl'])
        if form < 0.55:
            decimal, text = True, '%d' % v
        elif form < 0.7:
            decimal, text = False, '0%o' % v if v else '0'
        else:
            decimal = False
            text = ('0x%x' if rng.random() < 0.7 else '0X%X') % v
        t = ds.int_const_type(v, decimal, suffix)
        if t is None:
            continue
        return Node('const', t, value=v, text=text + suffix)
    return Node('const', ds.INT, value=0, text='0')


def small_const(v):
    c = Node('const', ds.INT, value=abs(v), text='%d' % abs(v))
    return mk_un('-', c) if v < 0 else c


class Gen:
    def __init__(self, rng, variables, svars, maxlit, strings):
        self.rng = rng
        self.vars = variables      # [(name, type)]
        self.svars = svars         # [name]
        self.maxlit = maxlit
        self.strings = strings

    def var_node(self):
        name, t = self.rng.choice(self.vars)
        return Node('var', t, var=name)

    def leaf(self):
        r = self.rng.random()
        if r < 0.6:
            return self.var_node()
        if r < 0.63:
            t = self.rng.choice(ds.INT_TYPES)
            return Node('sizeof_t', ds.SIZE_T, value=t.size, text=t.d)
        return rand_const(self.rng)

    def expr(self, depth):
        """An integer expression."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            if self.strings and depth > 0 and rng.random() < 0.15:
                return self.str_int(depth - 1)
            return self.leaf()
        r = rng.random()
        if r < 0.12:
            return mk_un(rng.choice(UNOPS), self.expr(depth - 1))
        if r < 0.22:
            return mk_cast(rng.choice(ds.INT_TYPES), self.expr(depth - 1))
        if r < 0.28:
            return mk_cond(self.expr(depth - 1), self.expr(depth - 1), self.expr(depth - 1))
        if r < 0.30:
            return mk_sizeof(self.expr(depth - 1))
        if self.strings and r < 0.36:
            return self.str_int(depth - 1)
        op = rng.choice(BINOPS)
        a = self.expr(depth - 1)
        if op in ('<<', '>>'):
            # Counts of every kind: small, at and past the width, negative.
            if rng.random() < 0.6:
                v = rng.choice(SHIFT_COUNTS)
                b = small_const(-v if rng.random() < 0.15 else v)
            else:
                b = self.expr(depth - 1)
            return mk_bin(op, a, b)
        b = self.expr(depth - 1)
        if op in ('/', '%'):
            for _ in range(10):
                if divisor_ok(b):
                    break
                b = self.expr(depth - 1)
            else:
                b = self.var_node()
        return mk_bin(op, a, b)

    def int_arg(self, depth):
        """An integer argument of a string function: mostly small."""
        if self.rng.random() < 0.6:
            return small_const(self.rng.randint(-12, 12))
        return self.expr(min(depth, 2))

    def str_int(self, depth):
        """An integer from strings: strlen, index, rindex, a comparison."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            return mk_fn('strlen', [self.sexpr(depth)])
        if r < 0.7:
            args = [self.sexpr(depth), self.needle(depth)]
            if rng.random() < 0.5:
                args.append(self.int_arg(depth))
            return mk_fn(rng.choice(['index', 'rindex']), args)
        return mk_bin(rng.choice(['<', '<=', '>', '>=', '==', '!=']),
                      self.sexpr(depth), self.sexpr(depth))

    def needle(self, depth):
        """What index() and strstr() look for: often a piece of a variable."""
        if self.rng.random() < 0.5:
            return mk_fn('substr', [Node('svar', STR, var=self.rng.choice(self.svars)),
                                    small_const(self.rng.randint(0, 4)),
                                    small_const(self.rng.randint(0, 3))])
        return self.sexpr(depth)

    def sleaf(self):
        if self.rng.random() < 0.6:
            return Node('svar', STR, var=self.rng.choice(self.svars))
        return mk_strlit(str_body(self.rng, self.maxlit))

    def sexpr(self, depth):
        """A string expression."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            return self.sleaf()
        r = rng.random()
        if r < 0.2:
            return mk_fn('strjoin', [self.sexpr(depth - 1), self.sexpr(depth - 1)])
        if r < 0.4:
            args = [self.sexpr(depth - 1), self.int_arg(depth - 1)]
            if rng.random() < 0.6:
                args.append(self.int_arg(depth - 1))
            return mk_fn('substr', args)
        if r < 0.5:
            return mk_fn(rng.choice(['toupper', 'tolower']), [self.sexpr(depth - 1)])
        if r < 0.6:
            return mk_fn('lltostr', [self.expr(min(depth - 1, 2))])
        if r < 0.75:
            c = rng.choice('abcdexyzABC019 -.')
            ch = Node('const', ds.INT, value=ord(c), text="'%s'" % c)
            return mk_fn(rng.choice(['strchr', 'strrchr']), [self.sexpr(depth - 1), ch])
        if r < 0.85:
            return mk_fn('strstr', [self.sexpr(depth - 1), self.needle(depth - 1)])
        return mk_cond(self.expr(min(depth - 1, 2)), self.sexpr(depth - 1),
                       self.sexpr(depth - 1))


# ---------------------------------------------------------------------------
# Statements: how a value is shown.

class Stmt:
    """
    An expression, shown directly, through a cast to 64 bits, after a store
    (assign), after x op= e (compound); a string printed, or stored first.
    """

    def __init__(self, e, form, target=None, op=None, init=None):
        self.e, self.form, self.target, self.op, self.init = e, form, target, op, init

    def may_fault(self):
        if self.form == 'compound' and self.op in ('/', '%'):
            return True
        if self.form == 'sassign' and self.e.may_null():
            return True
        return self.e.may_fault()

    def result_type(self):
        if self.form in ('assign', 'compound', 'incdec'):
            return self.target[2]
        return self.e.t

    def d(self, idx):
        if self.form == 'if':
            return 'if (%s) printf("%d 1\\n"); else printf("%d 0\\n");' % (
                d_text(self.e), idx, idx)
        if self.form in ('sprint', 'sassign'):
            val = d_text(self.e)
            if self.form == 'sassign':
                return '%s = %s; printf("%%d %%s\\n", %d, %s);' % (self.target, val, idx,
                                                                     self.target)
            if self.e.may_null():
                val = '(%s == NULL ? "<null>" : %s)' % (val, val)
            return 'printf("%%d %%s\\n", %d, %s);' % (idx, val)
        rt = self.result_type()
        fmt = '%d' if rt.signed else '%u'
        wide = 'long long' if rt.signed else 'unsigned long long'
        if self.form == 'direct':
            return 'printf("%%d %s\\n", %d, %s);' % (fmt, idx, d_text(self.e))
        if self.form == 'cast':
            return 'printf("%%d %s\\n", %d, (%s)%s);' % (fmt, idx, wide, d_text(self.e))
        name = self.target[0]
        if self.form == 'incdec':
            # The value of x++ (or ++x ...), then x.
            step = self.op.replace('x', name)
            return '%s = %s; w = (%s)(%s); printf("%%d %s %s\\n", %d, w, (%s)%s);' % (
                name, self.init, wide, step, fmt, fmt, idx, wide, name)
        if self.form == 'assign':
            pre = '%s = %s;' % (name, d_text(self.e))
        else:
            pre = '%s = %s; %s %s= %s;' % (name, self.init, name, self.op, d_text(self.e))
        return '%s printf("%%d %s\\n", %d, (%s)%s);' % (pre, fmt, idx, wide, name)

    def c(self, idx):
        if self.form in ('if', 'pred'):
            return 'printf("%d %%d\\n", %s != 0);' % (idx, c_text(self.e))
        if self.form in ('sprint', 'sassign'):
            get = 'd_str(s)' if self.form == 'sassign' else '(s ? s : "<null>")'
            return 'const char *s = %s; printf("%%d %%s\\n", %d, %s);' % (c_text(self.e), idx,
                                                                         get)
        rt = self.result_type()
        fmt = '%lld' if rt.signed else '%llu'
        if self.form in ('direct', 'cast'):
            val = ds.c_print(rt, c_text(self.e), self.form == 'direct')
            return 'printf("%%d %s\\n", %d, %s);' % (fmt, idx, val)
        _, name, tt = self.target
        if self.form == 'incdec':
            # The value of an assignment is the value stored (rule 14).
            step = self.op.replace('x', name)
            return '%s = %s; w = %s; printf("%%d %s %s\\n", %d, %s, %s);' % (
                name, self.init, ds.c_var(tt, step), fmt, fmt, idx,
                ds.c_print(tt, 'w', False), ds.c_print(tt, name, True))
        if self.form == 'assign':
            pre = '%s = (%s)%s;' % (name, tt.c, c_text(self.e))
        else:
            # x op= y: x's type decides the signedness (dsemantics, rule 13).
            val = ds.c_binary(self.op, tt, ds.c_var(tt, name), tt, c_text(self.e))
            pre = '%s = %s; %s = (%s)%s;' % (name, self.init, name, tt.c, val)
        return '%s printf("%%d %s\\n", %d, %s);' % (pre, fmt, idx, ds.c_print(tt, name, True))

    def replace(self, e):
        return Stmt(e, self.form, self.target, self.op, self.init)


COMPOUND_OPS = ['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^']


def rand_stmt(rng, gen, targets, depth):
    if gen.strings and rng.random() < 0.2:
        e = gen.sexpr(min(depth, 4))
        if rng.random() < 0.25:
            return Stmt(e, 'sassign', 'st')
        return Stmt(e, 'sprint')
    e = gen.expr(depth)
    r = rng.random()
    if r < 0.05:
        return Stmt(e, 'if')
    if r < 0.1:
        return Stmt(e, 'pred')
    if r < 0.5:
        return Stmt(e, 'cast')
    if r < 0.65:
        return Stmt(e, 'direct')
    tgt = rng.choice(targets)
    if r < 0.8:
        return Stmt(e, 'assign', tgt)
    if r < 0.85:
        name, _ = rng.choice(gen.vars)
        return Stmt(small_const(0), 'incdec', tgt, rng.choice(['x++', 'x--', '++x', '--x']),
                    name)
    op = rng.choice(COMPOUND_OPS)
    if op in ('/', '%') and not divisor_ok(e):
        op = '+'
    name, _ = rng.choice(gen.vars)
    return Stmt(e, 'compound', tgt, op, name)


# ---------------------------------------------------------------------------
# Programs.

class Batch:
    """Variables, targets and statements, as one D and one C program."""

    def __init__(self, rng, nstmts, depth, strings=True):
        self.strsize = rng.choice([256, 256, 256, 32, 16])
        self.vars, self.values = [], {}
        for i, t in enumerate(ds.INT_TYPES * 2):
            name = 'v%d' % i
            self.vars.append((name, t))
            self.values[name] = rand_value(rng, t)
        maxlit = min(10, self.strsize)
        self.svars = ['s%d' % i for i in range(6)]
        self.svalues = {n: str_body(rng, maxlit) for n in self.svars}
        # Where values are stored: globals, clause-locals, thread-locals, arrays.
        self.targets = []
        for i, t in enumerate(ds.INT_TYPES):
            self.targets += [('g%d' % i, 'g%d' % i, t), ('this->l%d' % i, 'l%d' % i, t),
                             ('self->tl%d' % i, 'tl%d' % i, t)]
            self.targets += [('a%d[%d]' % (i, k), 'a%d_%d' % (i, k), t) for k in range(2)]
        self.gen = Gen(rng, self.vars, self.svars, maxlit, strings)
        self.stmts = [rand_stmt(rng, self.gen, self.targets, depth) for _ in range(nstmts)]

    def d_program(self, stmts, group=8):
        """The D program, and the statement on each of its lines."""
        out = ['#pragma D option quiet', '#pragma D option bufsize=16m',
               '#pragma D option strsize=%d' % self.strsize, 'int ex;', 'string st;',
               'long long w;']
        for name, t in self.vars:
            out.append('%s %s;' % (t.d, name))
        for i, t in enumerate(ds.INT_TYPES):
            out.append('%s g%d; this %s l%d; self %s tl%d; %s a%d[int];' % (
                t.d, i, t.d, i, t.d, i, t.d, i))
        for name in self.svars:
            out.append('string %s;' % name)
        init = ' '.join('%s = %s;' % (n, d_literal(self.values[n])) for n, _ in self.vars)
        init += ' '.join(' %s = "%s";' % (n, self.svalues[n]) for n in self.svars)
        out.append('BEGIN { %s }' % init)
        lines = {}
        pending = []

        def clause(items, pre=''):
            out.append('BEGIN {' + pre)
            for i, s in items:
                out.append('\t' + s.d(i))
                lines[len(out)] = i
            out.append('}')

        for i, s in stmts:
            if s.form == 'pred':
                # A predicate, true and false: two clauses, after one naming it.
                out.append('BEGIN { ex = %d; }' % i)
                for neg, v in (('', 1), ('!', 0)):
                    out.append('BEGIN /%s(%s)/ { printf("%d %d\\n"); }' % (
                        neg, d_text(s.e), i, v))
                    lines[len(out)] = i
            elif s.may_fault():
                clause([(i, s)], ' ex = %d;' % i)
            else:
                pending.append((i, s))
                if len(pending) >= group:
                    clause(pending)
                    pending = []
        if pending:
            clause(pending)
        out.append('ERROR { printf("%d fault\\n", ex); }')
        out.append('BEGIN { exit(0); }')
        return '\n'.join(out) + '\n', lines

    def c_program(self, stmts):
        out = ['#define STRSZ %d' % self.strsize, ds.C_PRELUDE, ds.C_STRINGS]
        for name, t in self.vars:
            out.append('static %s %s = (%s)0x%xULL;' % (t.c, name, t.c,
                                                        self.values[name] & ds.MASK64))
        out.append('static uint64_t w;')
        for _, name, t in self.targets:
            out.append('static %s %s;' % (t.c, name))
        for name in self.svars:
            out.append('static const char *%s = %s;' % (
                name, ds.c_strlit(ds.escape_decode(self.svalues[name]))))
        for i, s in stmts:
            out.append('static void e%d(void) { %s }' % (i, s.c(i)))
        out.append('typedef void fn_t(void);')
        out.append('static struct { int i; fn_t *f; } fns[] = {')
        out.extend('\t{ %d, e%d },' % (i, i) for i, _ in stmts)
        out.append('};')
        out.append('int main(void)\n{\n'
                   '\tfor (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++) {\n'
                   '\t\tif (setjmp(d_jb) == 0)\n\t\t\tfns[k].f();\n'
                   '\t\telse\n\t\t\tprintf("%d fault\\n", fns[k].i);\n'
                   '\t\tfflush(stdout);\n\t}\n\treturn 0;\n}')
        return '\n'.join(out) + '\n'


def d_literal(v):
    """A D constant that stores v into an integer variable."""
    if v < 0:
        return '%d' % v if v >= -0x7fffffffffffffff else '0x%x' % (v & ds.MASK64)
    return '0x%x' % v


# ---------------------------------------------------------------------------
# Running both sides.

class Env:
    def __init__(self, args, workdir):
        self.args, self.dir = args, workdir
        self.nrun = 0

    def run_c(self, src):
        self.nrun += 1
        cfile = os.path.join(self.dir, 'ref%d.c' % self.nrun)
        exe = cfile[:-2]
        with open(cfile, 'w') as f:
            f.write(src)
        cc = [self.args.cc, '-std=c11', '-O0', '-w', '-o', exe, cfile]
        subprocess.run(cc, check=True)
        p = subprocess.run([exe], capture_output=True, timeout=120)
        return parse_results(p.stdout)

    def run_d(self, src):
        """Results by statement index, or (None, line, message) if dtrace failed."""
        self.nrun += 1
        dfile = os.path.join(self.dir, 'prog%d.d' % self.nrun)
        with open(dfile, 'w') as f:
            f.write(src)
        try:
            p = subprocess.run([self.args.dtrace, '-s', dfile], capture_output=True,
                               timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return None, None, 'dtrace timed out after %d s' % self.args.timeout
        res = parse_results(p.stdout)
        err = p.stderr.decode('latin-1')
        if p.returncode != 0 and not res:
            m = re.search(r'(?:line |\.d:)(\d+)', err)
            # The verifier's limit is the whole program's, not a line's.
            if m is None or 'program is too large' in err:
                return None, None, err.strip()
            return None, int(m.group(1)), err.strip()
        return res, None, err


def parse_results(data):
    """'index value' lines (the value may hold spaces; bytes kept as they are)."""
    res = {}
    for line in data.decode('latin-1').split('\n'):
        idx, _, val = line.partition(' ')
        if idx.isdigit():
            res[int(idx)] = val
    return res


def uses_strings(n):
    return n.is_str() or any(uses_strings(k) for k in n.kids)


def compare(env, batch, stmts):
    """
    Run stmts on both sides: {index: (d_result, c_result)} for mismatches.
    Statements with strings go in small programs: the verifier walks every
    call of the string functions, and stops at a million instructions.
    """
    ints = [(i, s) for i, s in stmts if not uses_strings(s.e)]
    strs = [(i, s) for i, s in stmts if uses_strings(s.e)]
    bad = {}
    # Smaller programs make the rerun after a refused statement cheaper.
    for group, n in ((ints, env.args.ints_per_program), (strs, env.args.strings_per_program)):
        for k in range(0, len(group), n):
            bad.update(compare_one(env, batch, group[k:k + n]))
    return bad


def compare_one(env, batch, stmts):
    bad = {}
    todo = list(stmts)
    while todo:
        dsrc, lines = batch.d_program(todo)
        dres, line, err = env.run_d(dsrc)
        if dres is None:
            # dtrace refused the program: blame the statement on the line it names.
            culprit = lines.get(line)
            if culprit is None and len(todo) == 1:
                culprit = todo[0][0]
            if culprit is None:
                # No line: split the batch until one statement is to blame.
                half = len(todo) // 2
                for part in (todo[:half], todo[half:]):
                    bad.update(compare_one(env, batch, part))
                return bad
            bad[culprit] = (first_line(err), None)
            todo = [(i, s) for i, s in todo if i != culprit]
            continue
        cres = env.run_c(batch.c_program(todo))
        for i, _ in todo:
            dv, cv = dres.get(i, '(nothing)'), cres.get(i, '(nothing)')
            if dv != cv or dv == '(nothing)':
                bad[i] = (dv, cv)
        break
    return bad


def first_line(s):
    for line in s.splitlines():
        if line.strip():
            return line.strip()
    return s


# ---------------------------------------------------------------------------
# Reduction: a smaller expression that still mismatches.

def subtrees(n, path=()):
    yield path, n
    for i, k in enumerate(n.kids):
        yield from subtrees(k, path + (i,))


def replace_at(n, path, new):
    if not path:
        return new
    kids = list(n.kids)
    kids[path[0]] = replace_at(kids[path[0]], path[1:], new)
    return rebuild(n, kids)


def rebuild(n, kids):
    k = n.kind
    if k == 'un':
        return mk_un(n.op, kids[0])
    if k in ('bin', 'scmp'):
        return mk_bin(n.op, kids[0], kids[1])
    if k == 'cond':
        return mk_cond(*kids)
    if k == 'cast':
        return mk_cast(n.t, kids[0])
    if k == 'sizeof':
        return mk_sizeof(kids[0])
    if k in ('sfn', 'ifn'):
        return mk_fn(n.op, kids)
    return n


def valid(n):
    if n.kind == 'bin' and n.op in ('/', '%') and not divisor_ok(n.kids[1]):
        return False
    return all(valid(k) for k in n.kids)


def simpler(sub, batch):
    """What a subtree may be replaced by: its children of its kind, leaves."""
    out = [k for k in sub.kids if k.is_str() == sub.is_str()]
    if sub.is_str():
        if sub.kind != 'svar':
            out.append(Node('svar', STR, var=batch.svars[0]))
        if sub.kind != 'slit':
            out.append(mk_strlit('ab'))
        return out
    if sub.kind != 'var':
        name, t = next(((nm, t) for nm, t in batch.vars if t.d == sub.t.d), batch.vars[0])
        out.append(Node('var', t, var=name))
    if sub.kind != 'const':
        out.append(small_const(1))
        out.append(small_const(0))
    return out


def candidates(stmt, batch):
    e = stmt.e
    seen = {d_text(e)}
    for path, sub in subtrees(e):
        if sub.kind == 'const' and path and e.kind != 'const':
            continue
        for r in simpler(sub, batch):
            ne = replace_at(e, path, r)
            key = d_text(ne)
            if key in seen or not valid(ne):
                continue
            seen.add(key)
            yield stmt.replace(ne)
    if stmt.form not in ('cast', 'sprint', 'sassign') and not e.is_str():
        yield Stmt(e, 'cast')


def kind_of(verdict):
    """What kind of mismatch: a refusal (by its message) or a value."""
    if verdict[1] is None:
        return re.sub(r'\S*\.d(:\d+)?|line \d+|\d+', '#', verdict[0])
    return 'fault' if 'fault' in (verdict[0], verdict[1]) else 'value'


def minimize(env, batch, stmt, verdict):
    """Shrink stmt while it keeps mismatching the same way."""
    cur, cur_verdict = stmt, verdict
    for _ in range(60):
        cands = [c for c in candidates(cur, batch) if c.e.size() <= cur.e.size()]
        if not cands:
            break
        cands.sort(key=lambda c: (c.e.size(), c.form != 'cast'))
        stmts = list(enumerate(cands))
        bad = compare(env, batch, stmts)
        found = None
        for i, c in stmts:
            if i in bad and kind_of(bad[i]) == kind_of(verdict):
                found = (c, bad[i])
                break
        if found is None:
            break
        same = found[0].e.size() == cur.e.size() and found[0].form == cur.form
        cur, cur_verdict = found
        if same:
            break
    return cur, cur_verdict


# ---------------------------------------------------------------------------

def describe(batch, stmt):
    used = {n.var for _, n in subtrees(stmt.e) if n.kind in ('var', 'svar')}
    if stmt.form in ('compound', 'incdec'):
        used.add(stmt.init)
    decl = ['#pragma D option strsize=%d' % batch.strsize] if batch.strsize != 256 else []
    decl += ['%s %s = %d;' % (t.d, n, batch.values[n]) for n, t in batch.vars if n in used]
    decl += ['string %s = "%s";' % (n, batch.svalues[n]) for n in batch.svars if n in used]
    return ' '.join(decl), stmt.d(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--dtrace', required=True)
    ap.add_argument('--seed', type=int, default=None,
                    help='seed of the whole run (default: random, printed)')
    ap.add_argument('--batches', type=int, default=4, help='programs to run')
    ap.add_argument('--per-batch', type=int, default=600, help='expressions per program')
    ap.add_argument('--depth', type=int, default=5, help='maximum expression depth')
    ap.add_argument('--no-strings', action='store_true', help='integer expressions only')
    ap.add_argument('--strings-per-program', type=int, default=24,
                    help='statements with strings in one D program')
    ap.add_argument('--ints-per-program', type=int, default=150,
                    help='statements without strings in one D program')
    ap.add_argument('--cc', default=os.environ.get('CC', 'cc'))
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--keep', help='keep the generated programs in this directory')
    ap.add_argument('--max-failures', type=int, default=10)
    ap.add_argument('--no-minimize', action='store_true')
    ap.add_argument('--tolerate', action='append', default=[], metavar='REGEX',
                    help='count, but do not fail on, programs dtrace refuses with this message')
    ap.add_argument('--max-tolerated', type=float, default=10.0, metavar='PERCENT',
                    help='fail when the tolerated refusals are more than this share of the '
                         'expressions (default 10)')
    args = ap.parse_args()

    if os.geteuid() != 0:
        print('difftest: needs root (dtrace loads BPF programs); skipping')
        return 77
    if shutil.which(args.cc) is None:
        print('difftest: no C compiler %s; skipping' % args.cc)
        return 77
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    print('difftest: seed %d, %d batches of %d expressions' % (seed, args.batches, args.per_batch))
    sys.stdout.flush()

    workdir = args.keep or tempfile.mkdtemp(prefix='difftest.')
    os.makedirs(workdir, exist_ok=True)
    env = Env(args, workdir)
    failures = 0
    total = 0
    refused = {}
    try:
        for b in range(args.batches):
            rng = random.Random('%d:%d' % (seed, b))
            batch = Batch(rng, args.per_batch, args.depth, not args.no_strings)
            stmts = list(enumerate(batch.stmts))
            bad = compare(env, batch, stmts)
            total += len(stmts)
            for i in sorted(bad):
                stmt, verdict = batch.stmts[i], bad[i]
                if verdict[1] is None and any(re.search(t, verdict[0]) for t in args.tolerate):
                    k = kind_of(verdict)
                    refused[k] = refused.get(k, 0) + 1
                    continue
                failures += 1
                if not args.no_minimize:
                    stmt, verdict = minimize(env, batch, stmt, verdict)
                decl, text = describe(batch, stmt)
                print('MISMATCH seed %d batch %d expression %d' % (seed, b, i))
                print('  %s' % decl)
                print('  %s' % text)
                print('  dtrace: %s' % verdict[0])
                print('  C:      %s' % verdict[1])
                sys.stdout.flush()
                if failures >= args.max_failures:
                    break
            if failures >= args.max_failures:
                break
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    for k, count in sorted(refused.items()):
        print('difftest: %d expressions refused (tolerated): %s' % (count, k))
    print('difftest: %d expressions, %d mismatches (seed %d)' % (total, failures, seed))
    ntol = sum(refused.values())
    if total and 100.0 * ntol / total > args.max_tolerated:
        print('difftest: %d of %d expressions refused: more than the %g%% tolerated'
              % (ntol, total, args.max_tolerated))
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
