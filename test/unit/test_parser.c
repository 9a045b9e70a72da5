/*
 * The D parser: the tree it builds (written as S-expressions, see
 * front_helpers.h) for every operator's precedence and associativity and
 * for the ambiguous corners of D's grammar, and its syntax errors, as
 * DTrace's yacc grammar (dt_grammar.y) parses and reports them.
 */
#include "front_helpers.h"

/* ---- Precedence and associativity ---- */

static void test_binary_precedence(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* From the tightest: * / %, + -, << >>, < > <= >=, == !=, &, ^, |, &&, ^^, ||. */
	expect_parse(dtp, "a + b * c", "(+ a (* b c))");
	expect_parse(dtp, "a * b + c", "(+ (* a b) c)");
	expect_parse(dtp, "a - b / c % d", "(- a (% (/ b c) d))");
	expect_parse(dtp, "a << b + c", "(<< a (+ b c))");
	expect_parse(dtp, "a + b >> c", "(>> (+ a b) c)");
	expect_parse(dtp, "a < b << c", "(< a (<< b c))");
	expect_parse(dtp, "a >= b >> c", "(>= a (>> b c))");
	expect_parse(dtp, "a == b < c", "(== a (< b c))");
	expect_parse(dtp, "a > b != c", "(!= (> a b) c)");
	expect_parse(dtp, "a & b == c", "(& a (== b c))");
	expect_parse(dtp, "a ^ b & c", "(^ a (& b c))");
	expect_parse(dtp, "a | b ^ c", "(| a (^ b c))");
	expect_parse(dtp, "a && b | c", "(&& a (| b c))");
	expect_parse(dtp, "a ^^ b && c", "(^^ a (&& b c))");
	expect_parse(dtp, "a && b ^^ c", "(^^ (&& a b) c)");
	expect_parse(dtp, "a || b ^^ c", "(|| a (^^ b c))");
	expect_parse(dtp, "a ^^ b || c", "(|| (^^ a b) c)");
	expect_parse(dtp, "a || b && c | d ^ e & f == g < h << i + j * k",
		      "(|| a (&& b (| c (^ d (& e (== f (< g (<< h (+ i (* j k))))))))))");
	expect_parse(dtp, "a * b + c << d < e == f & g ^ h | i && j ^^ k || l",
		      "(|| (^^ (&& (| (^ (& (== (< (<< (+ (* a b) c) d) e) f) g) h) i) j) k) l)");
}

static void test_left_associativity(void **state)
{
	dtrace_hdl_t *dtp = *state;
	static const char *const ops[] = { "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=",
					   ">=", "==", "!=", "&", "^", "|", "&&", "^^", "||" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		char expr[64], want[64];
		snprintf(expr, sizeof(expr), "a %s b %s c", ops[i], ops[i]);
		snprintf(want, sizeof(want), "(%s (%s a b) c)", ops[i], ops[i]);
		expect_parse(dtp, expr, want);
	}
	/* Operators of one level associate left together. */
	expect_parse(dtp, "a - b + c", "(+ (- a b) c)");
	expect_parse(dtp, "a / b * c", "(* (/ a b) c)");
	expect_parse(dtp, "a < b > c", "(> (< a b) c)");
}

static void test_right_associativity(void **state)
{
	dtrace_hdl_t *dtp = *state;
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=",
					   "<<=", ">>=" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		char expr[64], want[64];
		snprintf(expr, sizeof(expr), "a %s b %s c", ops[i], ops[i]);
		snprintf(want, sizeof(want), "(%s a (%s b c))", ops[i], ops[i]);
		expect_parse(dtp, expr, want);
	}
	expect_parse(dtp, "a ? b : c ? d : e", "(?: a b (?: c d e))");
	expect_parse(dtp, "a ? b ? c : d : e", "(?: a (?: b c d) e)");
}

static void test_conditional_and_comma(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "a || b ? c : d", "(?: (|| a b) c d)");
	expect_parse(dtp, "a ? b || c : d || e", "(?: a (|| b c) (|| d e))");
	/* The middle operand is an expression, commas included. */
	expect_parse(dtp, "a ? b, c : d", "(?: a (, b c) d)");
	expect_parse(dtp, "x = a ? b : c", "(= x (?: a b c))");
	expect_parse(dtp, "a ? b : (c = d)", "(?: a b (= c d))");
	/* Comma binds loosest, left to right. */
	expect_parse(dtp, "a, b = c, d", "(, (, a (= b c)) d)");
	expect_parse(dtp, "a = (b, c)", "(= a (, b c))");
}

static void test_unary_operators(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "-a", "(neg a)");
	expect_parse(dtp, "+a", "(pos a)");
	expect_parse(dtp, "!a", "(! a)");
	expect_parse(dtp, "~a", "(~ a)");
	expect_parse(dtp, "*p", "(deref p)");
	expect_parse(dtp, "&a", "(addr a)");
	expect_parse(dtp, "++a", "(pre++ a)");
	expect_parse(dtp, "--a", "(pre-- a)");
	expect_parse(dtp, "a++", "(post++ a)");
	expect_parse(dtp, "a--", "(post-- a)");
	/* Postfix binds tighter than prefix; unary tighter than binary. */
	expect_parse(dtp, "-a++", "(neg (post++ a))");
	expect_parse(dtp, "*p++", "(deref (post++ p))");
	expect_parse(dtp, "&a->b", "(addr (-> a b))");
	expect_parse(dtp, "!a == b", "(== (! a) b)");
	expect_parse(dtp, "~a & b", "(& (~ a) b)");
	expect_parse(dtp, "-a * b", "(* (neg a) b)");
	expect_parse(dtp, "- -a", "(neg (neg a))");
	expect_parse(dtp, "a - -b", "(- a (neg b))");
	expect_parse(dtp, "!!a", "(! (! a))");
	expect_parse(dtp, "**p", "(deref (deref p))");
	expect_parse(dtp, "-(int)a", "(neg (cast int a))");
	expect_parse(dtp, "++*p", "(pre++ (deref p))");
}

static void test_postfix_operators(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "a->b.c", "(. (-> a b) c)");
	expect_parse(dtp, "a[1]->b", "(-> ([] a 1) b)");
	expect_parse(dtp, "a.b[1]", "([] (. a b) 1)");
	expect_parse(dtp, "a[1][2]", "([] ([] a 1) 2)");
	expect_parse(dtp, "a[1, \"x\"]", "([] a 1 \"x\")");
	expect_parse(dtp, "f()", "(call f)");
	expect_parse(dtp, "f(a, b = 1)", "(call f a (= b 1))");
	expect_parse(dtp, "f((a, b))", "(call f (, a b))");
	expect_parse(dtp, "f(a)->b", "(-> (call f a) b)");
	expect_parse(dtp, "f(a)[0]", "([] (call f a) 0)");
	/* A member name may be a keyword. */
	expect_parse(dtp, "p->int + s.struct", "(+ (-> p int) (. s struct))");
	expect_parse(dtp, "(a + b)[1]", "([] (+ a b) 1)");
}

/* ---- The ambiguous corners ---- */

/* "(" starts a cast only if a type name follows. */
static void test_casts(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "(int)x", "(cast int x)");
	expect_parse(dtp, "(x)", "x");
	expect_parse(dtp, "(x) + 1", "(+ x 1)");
	expect_parse(dtp, "(x) - 1", "(- x 1)");
	expect_parse(dtp, "(int) - 1", "(cast int (neg 1))");
	expect_parse(dtp, "(int *)p", "(cast int * p)");
	expect_parse(dtp, "(unsigned long long)x", "(cast unsigned long long x)");
	expect_parse(dtp, "(const char **)x", "(cast const char * * x)");
	expect_parse(dtp, "(struct foo *)p", "(cast struct foo * p)");
	expect_parse(dtp, "(uint64_t)x", "(cast uint64_t x)");
	expect_parse(dtp, "(string)x", "(cast string x)");
	expect_parse(dtp, "(int)(char)x", "(cast int (cast char x))");
	expect_parse(dtp, "(int)x + 1", "(+ (cast int x) 1)");
	expect_parse(dtp, "(int)x->y", "(cast int (-> x y))");
	expect_parse(dtp, "(int)x++", "(cast int (post++ x))");
	expect_parse(dtp, "(x)(y)", "(call x y)");
	/*
	 * A name assigned to (or indexed, or ending a statement) is a variable
	 * from then on, even if a type has that name, as DTrace's lexer guesses.
	 */
	struct dt_node *v = fe_clause(fe_parse(dtp, "BEGIN\n{\nuint64_t = 1;\n(uint64_t) - 1;\n"
						     "sizeof(uint64_t);\n}\n"));
	assert_non_null(v);
	assert_string_equal(fe_str(v->clause.body->next->l), "(- uint64_t 1)");
	assert_non_null(v->clause.body->next->next->l->l);	/* sizeof an expression */
	/* A name the program typedef'd is a type from then on. */
	struct dt_node *c = fe_clause(fe_parse(dtp, "typedef int foo;\nBEGIN\n{\n(foo) - 1;\n}\n"));
	assert_non_null(c);
	assert_string_equal(fe_str(c->clause.body->l), "(cast foo (neg 1))");
}

static void test_sizeof_stringof(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "sizeof(int)", "(sizeof int)");
	expect_parse(dtp, "sizeof (x)", "(sizeof x)");
	expect_parse(dtp, "sizeof x", "(sizeof x)");
	expect_parse(dtp, "sizeof x + 1", "(+ (sizeof x) 1)");
	expect_parse(dtp, "sizeof(int) * 2", "(* (sizeof int) 2)");
	expect_parse(dtp, "sizeof -x", "(sizeof (neg x))");
	expect_parse(dtp, "sizeof x->y", "(sizeof (-> x y))");
	expect_parse(dtp, "sizeof(struct foo *)", "(sizeof struct foo *)");
	expect_parse(dtp, "sizeof sizeof x", "(sizeof (sizeof x))");
	expect_parse(dtp, "stringof x", "(stringof x)");
	expect_parse(dtp, "stringof(x) + 1", "(+ (stringof x) 1)");
	expect_parse(dtp, "stringof x->y", "(stringof (-> x y))");
	expect_parse(dtp, "offsetof(struct foo, bar)", "(offsetof struct foo bar)");
	expect_parse(dtp, "offsetof(struct foo, bar) + 1", "(+ (offsetof struct foo bar) 1)");
	expect_parse_error(dtp, "BEGIN\n{\noffsetof(struct foo, int);\n}",
			   "[D_SYNTAX] line 3: syntax error near \"int\"");
	expect_parse(dtp, "xlate <struct psinfo *>(x)", "(xlate struct psinfo * x)");
	/*
	 * sizeof's parenthesized type name is the whole operand.  (An unknown
	 * name's text runs to the line's end: DTrace's lexer looked past it.)
	 */
	expect_parse_error(dtp, "BEGIN\n{\nsizeof(int) x;\n}",
			   "[D_SYNTAX] line 3: syntax error near \"x;\"");
	/* A cast is no unary expression: sizeof (int) -1 is sizeof(int) - 1. */
	expect_parse(dtp, "sizeof (int) - 1", "(- (sizeof int) 1)");
}

static void test_aggregations(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "@a[1, 2] = count()", "(= (@a 1 2) (call count))");
	expect_parse(dtp, "@[1] = count()", "(= (@_ 1) (call count))");
	expect_parse(dtp, "@ = count()", "(= (@_) (call count))");
	expect_parse(dtp, "@a = sum(x + 1)", "(= (@a) (call sum (+ x 1)))");
	expect_parse(dtp, "@a[execname, pid] = quantize(x)",
		      "(= (@a execname pid) (call quantize x))");
	expect_parse_error(dtp, "BEGIN\n{\n@a[1][2] = count();\n}",
			   "[D_AGG_MDIM] line 3: improper attempt to reference @a as a multi-dimensional array");
	expect_parse_error(dtp, "BEGIN\n{\n@a[] = count();\n}",
			   "[D_SYNTAX] line 3: syntax error near \"]\"");
}

static void test_self_this(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "self->x = 1", "(= self->x 1)");
	expect_parse(dtp, "this->x", "this->x");
	expect_parse(dtp, "self->x[1, 2]", "([] self->x 1 2)");
	expect_parse(dtp, "self->x->y", "(-> self->x y)");
	expect_parse(dtp, "this->x.y", "(. this->x y)");
	expect_parse(dtp, "self->int", "self->int");
	expect_parse(dtp, "self->x++", "(post++ self->x)");
	/* "self" alone is no expression (sema says so); "self.x" is a member. */
	expect_parse(dtp, "self.x", "(. self x)");
	expect_parse_error(dtp, "BEGIN\n{\nself();\n}",
			   "[D_FUNC_IDENT] line 3: function designator is not of function type");
}

/* The left side of an assignment is a unary expression (DTrace's grammar). */
static void test_assignment_target(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse(dtp, "(a + b) = c", "(= (+ a b) c)");
	expect_parse(dtp, "*p = 1", "(= (deref p) 1)");
	expect_parse(dtp, "a[1]->b.c = d", "(= (. (-> ([] a 1) b) c) d)");
	expect_parse(dtp, "-a = b", "(= (neg a) b)");
	expect_parse_error(dtp, "BEGIN\n{\na + b = c;\n}", "[D_SYNTAX] line 3: syntax error near \"=\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = a ? b : c += 1;\n}",
			   "[D_SYNTAX] line 3: syntax error near \"+=\"");
	expect_parse_error(dtp, "BEGIN\n{\n(int)a = 1;\n}", "[D_SYNTAX] line 3: syntax error near \"=\"");
	expect_parse_error(dtp, "BEGIN\n{\na || b = 1;\n}", "[D_SYNTAX] line 3: syntax error near \"=\"");
	expect_parse_error(dtp, "BEGIN\n{\nf(a < b = 1);\n}",
			   "[D_SYNTAX] line 3: syntax error near \"=\"");
}

/* ---- Statements ---- */

static const char *body_of(dtrace_hdl_t *dtp, const char *src)
{
	static struct fe_buf b;
	struct dt_node *c = fe_clause(fe_parse(dtp, src));

	if (c == NULL)
		return fe_error(dtp);
	b.n = 0;
	b.s[0] = '\0';
	for (struct dt_node *s = c->clause.body; s != NULL; s = s->next) {
		fe_sexpr(&b, s);
		if (s->next != NULL)
			fe_put(&b, " ");
	}
	return b.s;
}

static void test_statements(void **state)
{
	dtrace_hdl_t *dtp = *state;

	assert_string_equal(body_of(dtp, "BEGIN {}"), "");
	assert_string_equal(body_of(dtp, "BEGIN { ; ; }"), "");
	assert_string_equal(body_of(dtp, "BEGIN { a; b }"), "(expr a) (expr b)");
	assert_string_equal(body_of(dtp, "BEGIN { a;; b; }"), "(expr a) (expr b)");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) b; }"), "(if a (expr b) nil)");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) b; else c; d }"),
			    "(if a (expr b) (expr c)) (expr d)");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) { b; c } else { } }"),
			    "(if a (block (expr b) (expr c)) (block))");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) { if (b) { c } } }"),
			    "(if a (block (if b (block (expr c)) nil)) nil)");
	/* An else belongs to the nearest if. */
	assert_string_equal(body_of(dtp, "BEGIN { if (a) if (b) c; else d; }"),
			    "(if a (if b (expr c) (expr d)) nil)");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) { if (b) c; } else d; }"),
			    "(if a (block (if b (expr c) nil)) (expr d))");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) ; else b; }"), "(if a nil (expr b))");
	assert_string_equal(body_of(dtp, "BEGIN { if (a) b; else if (c) d; else e; }"),
			    "(if a (expr b) (if c (expr d) (expr e)))");
	assert_string_equal(body_of(dtp, "BEGIN { if (a, b) c; }"), "(if (, a b) (expr c) nil)");
}

static void test_statement_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse_error(dtp, "BEGIN\n{\na b\n}", "[D_SYNTAX] line 3: syntax error near \"b\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 1\ny = 2;\n}",
			   "[D_SYNTAX] line 4: syntax error near \"y = 2;\"");
	/* Braces group only an if's statements. */
	expect_parse_error(dtp, "BEGIN\n{\n{ x = 1; }\n}", "[D_SYNTAX] line 3: syntax error near \"{\"");
	/* Only a clause's (or a block's) last statement may omit its ';'. */
	expect_parse_error(dtp, "BEGIN\n{\nif (a) x = 1\n}", "[D_SYNTAX] line 4: syntax error near \"}\"");
	expect_parse_error(dtp, "BEGIN\n{\nif (a) x = 1 else y = 1;\n}",
			   "[D_SYNTAX] line 3: syntax error near \"else\"");
	expect_parse_error(dtp, "BEGIN\n{\nif a x = 1;\n}",
			   "[D_SYNTAX] line 3: syntax error near \"a x = 1;\"");
	expect_parse_error(dtp, "BEGIN\n{\nelse x = 1;\n}", "[D_SYNTAX] line 3: syntax error near \"else\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = (1;\n}", "[D_SYNTAX] line 3: syntax error near \";\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 1 +;\n}", "[D_SYNTAX] line 3: syntax error near \";\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = ;\n}", "[D_SYNTAX] line 3: syntax error near \";\"");
	expect_parse_error(dtp, "BEGIN\n{\nf(1,);\n}", "[D_SYNTAX] line 3: syntax error near \")\"");
	expect_parse_error(dtp, "BEGIN\n{\nx[1,] = 1;\n}", "[D_SYNTAX] line 3: syntax error near \"]\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = a ? b;\n}", "[D_SYNTAX] line 3: syntax error near \";\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 1;\n", "[D_SYNTAX] line 4: syntax error near end of input");
	expect_parse_error(dtp, "BEGIN\n{\nx->;\n}", "[D_SYNTAX] line 3: syntax error near \";\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 1;\n}\n}", "[D_SYNTAX] line 5: syntax error near \"}\"");
}

/* ---- Clauses ---- */

static void test_clauses(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_node *root, *c;

	root = fe_parse(dtp, "BEGIN, END\n{\n}\nsyscall::read:entry,\nsyscall::write:entry\n/x/\n{\n}\n");
	assert_non_null(root);
	c = root;
	assert_int_equal(c->kind, N_CLAUSE);
	assert_int_equal(c->clause.npdescs, 2);
	assert_string_equal(c->clause.pdescs[0]->name, "BEGIN");
	assert_string_equal(c->clause.pdescs[1]->name, "END");
	assert_null(c->clause.pred);
	assert_true(c->clause.has_body);
	c = c->next;
	assert_int_equal(c->clause.npdescs, 2);
	assert_string_equal(c->clause.pdescs[1]->prov, "syscall");
	assert_string_equal(c->clause.pdescs[1]->func, "write");
	assert_int_equal(c->clause.pdescs[1]->line, 5);
	assert_string_equal(fe_str(c->clause.pred), "x");
	assert_null(c->next);

	/* Probe description fields are taken from the right. */
	root = fe_parse(dtp, "a:b:c:d, c:d, tick-1sec, :::, syscall:::entry {}");
	assert_non_null(root);
	struct dt_pdesc *const *pd = root->clause.pdescs;
	assert_string_equal(pd[0]->prov, "a");
	assert_string_equal(pd[0]->name, "d");
	assert_string_equal(pd[1]->prov, "");
	assert_string_equal(pd[1]->func, "c");
	assert_string_equal(pd[1]->name, "d");
	assert_string_equal(pd[2]->prov, "");
	assert_string_equal(pd[2]->name, "tick-1sec");
	assert_string_equal(pd[3]->prov, "");
	assert_string_equal(pd[4]->mod, "");
	assert_string_equal(pd[4]->name, "entry");
	/* Any number of descriptions. */
	char *many = malloc(1000 * 10 + 16);
	assert_non_null(many);
	size_t k = 0;
	for (int i = 0; i < 1000; i++)
		k += (size_t)sprintf(many + k, "%sp:::n%d", i ? "," : "", i % 100);
	strcpy(many + k, " {}");
	root = fe_parse(dtp, many);
	free(many);
	assert_non_null(root);
	assert_int_equal(root->clause.npdescs, 1000);
	assert_string_equal(root->clause.pdescs[999]->name, "n99");
	expect_parse_error(dtp, "a:b:c:d:e {}",
			   "[D_PDESC_INVAL] line 1: invalid probe description \"a:b:c:d:e\": Overspecified probe description");
}

/* The predicate's "/" ends it only before ; { / or the end: a / b is division. */
static void test_predicates(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_node *c;

	c = fe_clause(fe_parse(dtp, "BEGIN /a / b/ {}"));
	assert_non_null(c);
	assert_string_equal(fe_str(c->clause.pred), "(/ a b)");
	c = fe_clause(fe_parse(dtp, "BEGIN\n/ x > 1 &&\n  y < 2 /\n{\n}"));
	assert_non_null(c);
	assert_string_equal(fe_str(c->clause.pred), "(&& (> x 1) (< y 2))");
	c = fe_clause(fe_parse(dtp, "BEGIN /(a / b) > c/ {}"));
	assert_string_equal(fe_str(c->clause.pred), "(> (/ a b) c)");
	c = fe_clause(fe_parse(dtp, "BEGIN /a[1] / 2/ {}"));
	assert_string_equal(fe_str(c->clause.pred), "(/ ([] a 1) 2)");

	expect_parse_error(dtp, "BEGIN\n//\n{}", "[D_SYNTAX] line 3: syntax error near \"/\"");
	/* DTrace reports these where its look-ahead past the "/" stopped. */
	expect_parse_error(dtp, "BEGIN\n/(a/\n{}",
			   "[D_SYNTAX] line 3: closing ) expected in predicate before /");
	expect_parse_error(dtp, "BEGIN\n/a[1/ {}",
			   "[D_SYNTAX] line 2: closing ] expected in predicate before /");
	/* In a script a predicate needs actions. */
	expect_parse_error(dtp, "BEGIN\n/x/\n",
			   "[D_SYNTAX] line 2: expected actions { } following probe description and predicate");
	expect_parse_error(dtp, "BEGIN\n/x/\n;",
			   "[D_SYNTAX] line 2: expected actions { } following probe description and predicate");
}

static void test_clause_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* In a script a probe description needs a predicate or actions. */
	expect_parse_error(dtp, "\nBEGIN\n",
			   "[D_SYNTAX] line 2: expected predicate and/or actions following probe description");
	expect_parse_error(dtp, "BEGIN, {}", "[D_SYNTAX] line 1: syntax error near \"{\"");
	expect_parse_error(dtp, ", BEGIN {}", "[D_SYNTAX] line 1: syntax error near \",\"");
	expect_parse_error(dtp, "/x/ {}", "[D_SYNTAX] line 1: syntax error near \"/\"");
	expect_parse_error(dtp, "{}", "[D_SYNTAX] line 1: syntax error near \"{\"");
	expect_parse_error(dtp, "BEGIN {} }", "[D_SYNTAX] line 1: syntax error near \"}\"");
	expect_parse_error(dtp, "BEGIN\n{\n", "[D_SYNTAX] line 3: syntax error near end of input");
	/* As -n gives it, a probe description alone is a clause. */
	dtp->core->errmsg[0] = '\0';
	struct dt_node *root = dt_compile_front(dtp->cc, "BEGIN", NULL, 0, DT_FRONT_PARSE, 0, NULL);
	assert_non_null(root);
	assert_false(root->clause.has_body);
}

/* A program with nothing in it (comments aside) is an error at its end. */
static void test_empty_program(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse_error(dtp, "", "[D_EMPTY] line 1: empty D program translation unit");
	expect_parse_error(dtp, "/*\n * nothing\n */\n\n",
			   "[D_EMPTY] line 5: empty D program translation unit");
	expect_parse_error(dtp, "#pragma D option quiet\n",
			   "[D_EMPTY] line 2: empty D program translation unit");
	/* -x empty allows it. */
	assert_int_equal(dtrace_setopt(dtp, "empty", NULL), 0);
	dtp->core->errmsg[0] = '\0';
	assert_null(fe_parse(dtp, "/* nothing */"));
	assert_string_equal(fe_error(dtp), "");
}

/* ---- Program-scope declarations ---- */

static void test_declarations(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_node *root;

	root = fe_parse(dtp, "int x, *y;\nself int z;\nthis string s;\nBEGIN {}\n");
	assert_non_null(root);
	assert_int_equal(root->kind, N_DECL);
	assert_string_equal(root->decl.decl->name, "x");
	assert_int_equal(root->next->kind, N_DECL);
	assert_string_equal(root->next->decl.decl->name, "y");
	assert_int_equal(root->next->decl.decl->outer->kind, DK_PTR);
	assert_int_equal(root->next->next->decl.spec->dclass, DC_SELF);
	assert_int_equal(root->next->next->next->decl.spec->dclass, DC_THIS);
	assert_int_equal(root->next->next->next->next->kind, N_CLAUSE);

	/* int *a[4]: a is an array of 4 pointers to int (the chain runs name outwards). */
	root = fe_parse(dtp, "int *a[4];");
	struct dt_declarator *d = root->decl.decl;
	assert_int_equal(d->kind, DK_NAME);
	assert_int_equal(d->outer->kind, DK_ARRAY);
	assert_int_equal(d->outer->outer->kind, DK_PTR);
	assert_null(d->outer->outer->outer);
	/* int (*a)[4]: a pointer to an array. */
	root = fe_parse(dtp, "int (*a)[4];");
	d = root->decl.decl;
	assert_int_equal(d->outer->kind, DK_PTR);
	assert_int_equal(d->outer->outer->kind, DK_ARRAY);
	/* An associative array's key types. */
	root = fe_parse(dtp, "int a[string, int];");
	d = root->decl.decl;
	assert_true(d->outer->assoc);
	assert_int_equal(dt_node_list_len(d->outer->params), 2);

	root = fe_parse(dtp, "struct s { int a; char *b; int c : 3; };\nenum e { A, B = 5 };\n");
	assert_non_null(root);
	assert_int_equal(root->decl.spec->ts, TS_STRUCT);
	assert_int_equal(dt_node_list_len(root->decl.spec->members), 3);
	assert_non_null(root->decl.spec->members->next->next->decl.bitwidth);
	assert_int_equal(root->next->decl.spec->ts, TS_ENUM);
	assert_string_equal(root->next->decl.spec->enums->next->name, "B");

	/* Declarations cannot be clause statements. */
	expect_parse_error(dtp, "BEGIN\n{\nint x;\n}", "[D_SYNTAX] line 3: syntax error near \"int\"");
	expect_parse_error(dtp, "int x", "[D_SYNTAX] line 1: syntax error near end-of-input");
	expect_parse_error(dtp, "int x int y;", "[D_SYNTAX] line 1: syntax error near \"int\"");
	expect_parse_error(dtp, "enum e { };", "[D_SYNTAX] line 1: syntax error near \"}\"");
	expect_parse_error(dtp, "char int x;", "[D_DECL_COMBO] line 1: invalid type combination");
	expect_parse_error(dtp, "static self int x;",
			   "[D_DECL_CLASS] line 1: only one storage class allowed in a declaration");
	expect_parse_error(dtp, "counter x;", "[D_SYNTAX] line 1: syntax error near \"counter\"");
}

static void test_inline_translator_provider(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_node *root;

	root = fe_parse(dtp, "inline int one = 1;\ninline string s[int x] = \"a\";\n");
	assert_non_null(root);
	assert_int_equal(root->kind, N_INLINE);
	assert_string_equal(fe_str(root->l), "1");
	assert_int_equal(root->next->kind, N_INLINE);

	root = fe_parse(dtp, "struct out { int x; };\n"
			     "translator struct out < int *p > {\n\tx = *p + 1;\n};\n");
	assert_non_null(root);
	struct dt_node *x = root->next;
	assert_int_equal(x->kind, N_XLATOR);
	assert_string_equal(x->xlator.from_name, "p");
	assert_string_equal(x->xlator.members->member, "x");
	assert_string_equal(fe_str(x->xlator.members->r), "(+ (deref p) 1)");
	assert_int_equal(x->xlator.end_line, 4);

	root = fe_parse(dtp, "provider myprov {\n\tprobe start(int, char *);\n"
			     "\tprobe done(int a) : (long);\n};\n");
	assert_non_null(root);
	assert_int_equal(root->kind, N_PROVIDER);
	assert_string_equal(root->provider.name, "myprov");
	assert_int_equal(dt_node_list_len(root->provider.probes), 2);
	assert_string_equal(root->provider.probes->decl.decl->name, "start");
	assert_non_null(root->provider.probes->next->l);

	expect_parse_error(dtp, "inline int x;", "[D_SYNTAX] line 1: syntax error near \";\"");
	expect_parse_error(dtp, "provider p { probe a(); }",
			   "[D_SYNTAX] line 1: syntax error near end of input");
	expect_parse_error(dtp, "provider p { int a(); };", "[D_SYNTAX] line 1: syntax error near \"int\"");
	expect_parse_error(dtp, "translator int < int x > { y = 1 };",
			   "[D_SYNTAX] line 1: syntax error near \"}\"");
}

/* Errors name the token as written, on its line. */
static void test_error_lines(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_parse_error(dtp, "BEGIN\n{\n/* a\n comment */ x = \"abc\" \"d\";\n}",
			   "[D_SYNTAX] line 4: syntax error near \"\"d\"\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 1 \\\n 2;\n}", "[D_SYNTAX] line 4: syntax error near \"2\"");
	/* "#line N": the next line is N + 1 in DTrace (see test_lexer.c). */
	expect_parse_error(dtp, "BEGIN\n{\n#line 100\nx = 1 2;\n}",
			   "[D_SYNTAX] line 101: syntax error near \"2\"");
	expect_parse_error(dtp, "BEGIN\n{\n# 100\nx = 1 2;\n}",
			   "[D_SYNTAX] line 100: syntax error near \"2\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = 0x1ffffu y;\n}",
			   "[D_SYNTAX] line 3: syntax error near \"y;\"");
	expect_parse_error(dtp, "BEGIN\n{\nx = @a;\n}\nEND\n{\n@@b;\n}",
			   "[D_SYNTAX] line 7: syntax error near \"@b\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_binary_precedence, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_left_associativity, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_right_associativity, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_conditional_and_comma, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_unary_operators, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_postfix_operators, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_casts, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_sizeof_stringof, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_aggregations, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_self_this, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_assignment_target, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_statements, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_statement_errors, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_clauses, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_predicates, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_clause_errors, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_empty_program, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_declarations, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_inline_translator_provider, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_error_lines, fe_setup, fe_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
