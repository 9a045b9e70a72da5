/*
 * The symbolizer: kallsyms parsing and address lookup, a process's
 * mappings and ELF symbols (this test's own executable and libc), a
 * process that exited before it was read, and DTrace's texts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "consumer/ksyms.h"
#include "consumer/printf.h"
#include "consumer/symbolize.h"
#include "consumer/usyms.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 t __pfx_start\n"
	"ffffffff81000000 T start_here\n"
	"ffffffff81000100 t local_func\n"
	"ffffffff81000180 W weak_func\n"
	"ffffffff81000200 T do_syscall_64\n"
	"ffffffff81000300 T _etext\n"
	"ffffffffc0001000 t ext4_read\t[ext4]\n"
	"ffffffffc0001100 t ext4_write\t[ext4]\n"
	"ffffffffc0002000 t bpf_prog_1234_dt_prog_0\t[bpf]\n"
	"ffffffffc0002200 t bpf_prog_5678_dt_clause_0\t[bpf]\n"
	"ffffffffc0003000 t nfs_open\t[nfs]\n"
	"ffffffffc0003040 t nfs_close\t[nfs]\n";

static void test_kallsyms_parse(void **state)
{
	struct dt_ksyms *ks;

	(void)state;
	assert_int_equal(dt_ksyms_parse(kallsyms, &ks), 0);
	/* aliases at one address are one symbol; absolute ones are left out */
	assert_int_equal(ks->nsyms, 11);
	assert_int_equal(ks->nmods, 4);
	assert_string_equal(ks->syms[0].name, "start_here");	/* global, no '_', shortest */
	assert_string_equal(ks->syms[0].mod, "vmlinux");
	dt_ksyms_free(ks);
}

static void test_kallsyms_lookup(void **state)
{
	struct dt_ksyms *ks;
	const struct dt_ksym *s;

	(void)state;
	assert_int_equal(dt_ksyms_parse(kallsyms, &ks), 0);
	s = dt_ksyms_lookup(ks, 0xffffffff81000200);
	assert_non_null(s);
	assert_string_equal(s->name, "do_syscall_64");
	s = dt_ksyms_lookup(ks, 0xffffffff810002ff);
	assert_non_null(s);
	assert_string_equal(s->name, "do_syscall_64");
	assert_int_equal(s->addr, 0xffffffff81000200);
	s = dt_ksyms_lookup(ks, 0xffffffff81000120);
	assert_string_equal(s->name, "local_func");
	s = dt_ksyms_lookup(ks, 0xffffffff81000190);
	assert_string_equal(s->name, "weak_func");
	/* module symbols end where the module's next symbol starts */
	s = dt_ksyms_lookup(ks, 0xffffffffc0001010);
	assert_string_equal(s->name, "ext4_read");
	assert_string_equal(s->mod, "ext4");
	/* a module's last symbol: itself, or up to the module's end */
	assert_null(dt_ksyms_lookup(ks, 0xffffffffc0003044));
	assert_non_null(dt_ksyms_lookup(ks, 0xffffffffc0003040));
	dt_ksyms_module_end(ks, "nfs", 0xffffffffc0003100);
	s = dt_ksyms_lookup(ks, 0xffffffffc0003044);
	assert_non_null(s);
	assert_string_equal(s->name, "nfs_close");
	assert_string_equal(s->mod, "nfs");
	assert_null(dt_ksyms_lookup(ks, 0xffffffffc0003100));
	/* below the kernel, between modules: nothing */
	assert_null(dt_ksyms_lookup(ks, 0x10));
	assert_null(dt_ksyms_lookup(ks, 0xffffffffc0001200));
	assert_null(dt_ksyms_module(ks, 0x10));
	const struct dt_kmod *m = dt_ksyms_module(ks, 0xffffffff81000250);
	assert_non_null(m);
	assert_string_equal(m->name, "vmlinux");
	m = dt_ksyms_module(ks, 0xffffffffc0002100);
	assert_string_equal(m->name, "bpf");
	dt_ksyms_free(ks);
}

static void test_kallsyms_hidden(void **state)
{
	struct dt_ksyms *ks;

	(void)state;
	/* kptr_restrict: every address 0, nothing to look up */
	assert_int_equal(dt_ksyms_parse("0000000000000000 T _text\n0000000000000000 T f\n", &ks),
			 0);
	assert_int_equal(ks->nsyms, 0);
	assert_null(dt_ksyms_lookup(ks, 0));
	dt_ksyms_free(ks);
}

__attribute__((noinline, used)) int symbolize_me(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static void test_usyms_self(void **state)
{
	struct dt_usyms *us = dt_usyms_new();
	struct dt_usym u;
	uint64_t f = (uint64_t)(uintptr_t)&symbolize_me;

	(void)state;
	assert_non_null(us);
	assert_int_equal(dt_usyms_lookup(us, getpid(), f + 3, &u), 0);
	assert_string_equal(u.obj, "test_symbolize");
	assert_non_null(u.func);
	assert_string_equal(u.func, "symbolize_me");
	assert_int_equal(u.start, f);
	/* libc's getpid(): libc.so.6, a function of it */
	uint64_t g = (uint64_t)(uintptr_t)&getpid;
	assert_int_equal(dt_usyms_lookup(us, getpid(), g, &u), 0);
	assert_string_equal(u.obj, "libc.so.6");
	assert_non_null(u.func);
	assert_int_equal(u.start, g);
	/* the stack: mapped, but no file */
	int local = 0;
	assert_int_equal(dt_usyms_lookup(us, getpid(), (uint64_t)(uintptr_t)&local, &u), 0);
	assert_null(u.obj);
	dt_usyms_free(us);
}

static void test_usyms_exited(void **state)
{
	struct dt_usyms *us = dt_usyms_new();
	struct dt_usym u;

	(void)state;
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	assert_true(pid > 0);
	waitpid(pid, NULL, 0);
	/* gone before it was read: nothing is known */
	assert_int_equal(dt_usyms_lookup(us, pid, 0x401000, &u), -ESRCH);
	dt_usyms_free(us);
}

/* A file of two pages named base in a fresh directory; its path in path. */
static int two_pages(char *dir, const char *base, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, base);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	long pg = sysconf(_SC_PAGESIZE);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2 * pg), 0);
	return fd;
}

/*
 * Mappings a later read no longer shows are kept: an address only they
 * held resolves through them; one that they and the mappings now there
 * read differently resolves through neither; the same file at the same
 * place again is no conflict.
 */
static void test_usyms_gone(void **state)
{
	struct dt_usyms *us = dt_usyms_new();
	struct dt_usym u;
	char dir[] = "/tmp/test_usyms.XXXXXX", pa[64], pb[64];
	long pg = sysconf(_SC_PAGESIZE);

	(void)state;
	assert_non_null(us);
	assert_non_null(mkdtemp(dir));
	int a = two_pages(dir, "file_a", pa, sizeof(pa)), b = two_pages(dir, "file_b", pb, sizeof(pb));
	/* Two pages of file_a, read; then one page of file_b where its first was. */
	char *at = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, a, 0);
	assert_true(at != MAP_FAILED);
	uint64_t x = (uint64_t)(uintptr_t)at;
	assert_int_equal(dt_usyms_refresh(us, getpid(), 0, false), 0);
	assert_int_equal(dt_usyms_lookup(us, getpid(), x + 8, &u), 0);
	assert_string_equal(u.obj, "file_a");
	assert_true(mmap(at, pg, PROT_READ, MAP_SHARED | MAP_FIXED, b, 0) == at);
	assert_int_equal(dt_usyms_refresh(us, getpid(), 0, false), 0);
	/* file_a's first page or file_b's: either could have been meant. */
	assert_int_equal(dt_usyms_lookup(us, getpid(), x + 8, &u), 0);
	assert_null(u.obj);
	/* file_a's second page is still there: it is no conflict. */
	assert_int_equal(dt_usyms_lookup(us, getpid(), x + pg + 8, &u), 0);
	assert_string_equal(u.obj, "file_a");
	/* Unmapped since: only the kept mapping held it. */
	assert_int_equal(munmap(at + pg, pg), 0);
	assert_int_equal(dt_usyms_refresh(us, getpid(), 0, false), 0);
	assert_int_equal(dt_usyms_lookup(us, getpid(), x + pg + 8, &u), 0);
	assert_string_equal(u.obj, "file_a");
	/* file_a back as it was: the same meaning as before, no conflict. */
	assert_true(mmap(at, 2 * pg, PROT_READ, MAP_SHARED | MAP_FIXED, a, 0) == at);
	assert_int_equal(dt_usyms_refresh(us, getpid(), 0, false), 0);
	assert_int_equal(dt_usyms_lookup(us, getpid(), x + pg + 8, &u), 0);
	assert_string_equal(u.obj, "file_a");
	munmap(at, 2 * pg);
	close(a);
	close(b);
	unlink(pa);
	unlink(pb);
	rmdir(dir);
	dt_usyms_free(us);
}

static void test_texts(void **state)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	struct dt_strbuf sb;
	uint64_t f = (uint64_t)(uintptr_t)&symbolize_me;

	(void)state;
	assert_non_null(dtp);
	const struct dt_pf_syms *s = dt_syms(dtp->cons);
	assert_non_null(s);
	dt_sb_init(&sb);
	assert_int_equal(s->uaddr(s->ctx, (uint64_t)getpid(), f + 0x2, &sb), 0);
	assert_string_equal(sb.s, "test_symbolize`symbolize_me+0x2");
	dt_sb_reset(&sb);
	assert_int_equal(s->uaddr(s->ctx, (uint64_t)getpid(), f, &sb), 0);
	assert_string_equal(sb.s, "test_symbolize`symbolize_me");
	dt_sb_reset(&sb);
	assert_int_equal(s->umod(s->ctx, (uint64_t)getpid(), f, &sb), 0);
	assert_string_equal(sb.s, "test_symbolize");
	/* no process, no kernel symbol: the engine prints hex */
	dt_sb_reset(&sb);
	assert_int_equal(s->uaddr(s->ctx, 0, f, &sb), -1);
	assert_int_equal(s->kaddr(s->ctx, 0x10, &sb), -1);
	assert_int_equal(s->kmod(s->ctx, 0x10, &sb), -1);
	dt_sb_free(&sb);
	dtrace_close(dtp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_parse),
		cmocka_unit_test(test_kallsyms_lookup),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_usyms_self),
		cmocka_unit_test(test_usyms_exited),
		cmocka_unit_test(test_usyms_gone),
		cmocka_unit_test(test_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
