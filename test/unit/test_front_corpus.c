/*
 * The front end over every input the compiler's fuzz target starts from
 * (test/fuzz/corpus/compile and the live tests' D scripts in test/d):
 * each is parsed and checked as the fuzz target compiles it (-e -s with
 * $1 = 1 and $2 = hello; a leading 0x01 byte makes it a probe specifier)
 * and without macro arguments, and either checks or fails with a D_* tag
 * and a message, never a crash
 * (ASan and UBSan builds run this too).  Live scripts that need the
 * kernel's probes or types may fail to check, but only with a tag.
 */
#include "front_helpers.h"

#include <dirent.h>
#include <errno.h>

static char *read_all(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			char *nb = realloc(buf, cap);
			if (nb == NULL)
				break;
			buf = nb;
		}
		size_t n = fread(buf + len, 1, 4096, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	if (buf != NULL)
		buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* Compile one input as the fuzz target would; returns 1 if it checked. */
static int check_input(const char *path)
{
	char *const argv[] = { "fuzz.d", "1", "hello", NULL };
	size_t len = 0;
	char *text = read_all(path, &len);
	unsigned flags = DTRACE_C_FILE;
	const char *src = text;

	if (text == NULL)
		fail_msg("%s: cannot read", path);
	/* Inputs with NUL bytes stop there, as the fuzz target's strings do. */
	if (len > 0 && text[0] == 0x01) {
		flags = DTRACE_C_PSPEC;
		src++;
	}
	/* As the fuzz target (with $1 and $2), then without macro arguments. */
	int ok = 0;
	for (int run = 0; run < 4; run++) {
		int stage = run % 2 == 0 ? DT_FRONT_PARSE : DT_FRONT_CHECK, argc = run < 2 ? 3 : 1;
		dtrace_hdl_t *dtp = fe_open();
		dtp->core->errmsg[0] = '\0';
		struct dt_node *root = dt_compile_front(dtp->cc, src, (flags & DTRACE_C_FILE) ? "fuzz.d" : NULL,
							flags | DTRACE_C_ZDEFS, stage, argc, argv);
		if (root == NULL && (dtp->core->errmsg[0] == '\0' || strncmp(dtp->core->errtag, "D_", 2) != 0))
			fail_msg("%s: failed without a tag and message: [%s] %s", path, dtp->core->errtag,
				 dtp->core->errmsg);
		if (run == 3)
			ok = root != NULL;
		if (getenv("FRONT_CORPUS_VERBOSE") != NULL && root == NULL)
			print_message("%s (run %d): [%s] %s\n", path, run, dtp->core->errtag, dtp->core->errmsg);
		dtrace_close(dtp);
	}
	free(text);
	return ok;
}

static void check_dir(const char *dir, const char *suffix, int *n, int *ok)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		fail_msg("%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name), sl = strlen(suffix);
		if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix) != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		*ok += check_input(path);
		(*n)++;
	}
	closedir(d);
}

static void test_fuzz_corpus(void **state)
{
	int n = 0, ok = 0;

	(void)state;
	check_dir(FRONT_SOURCE_DIR "/test/fuzz/corpus/compile", "", &n, &ok);
	assert_true(n > 0);
	print_message("%d of %d seeds check (the others fail as meant to, with a tag)\n", ok, n);
}

static void test_live_scripts(void **state)
{
	int n = 0, ok = 0;

	(void)state;
	check_dir(FRONT_SOURCE_DIR "/test/d", ".d", &n, &ok);
	assert_true(n > 0);
	print_message("%d of %d live test scripts check without a kernel\n", ok, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_corpus),
		cmocka_unit_test(test_live_scripts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
