// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_format.c - the kernel's printf engine against the C library's snprintf, over a grid
 * of formats and values, plus truncation and the return-value contract.
 */
#include <limits.h>
#include <stdint.h>

#include "kernel/lib/format.h"
#include "tests/host/host_test.h"

#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-extra-args"

#define SAME(fmt, ...)							\
	do {								\
		char a[256], b[256];					\
		int na = ck_snprintf(a, sizeof(a), fmt, __VA_ARGS__);	\
		int nb = snprintf(b, sizeof(b), fmt, __VA_ARGS__);	\
		CHECK(na == nb && !strcmp(a, b), "fmt '%s': got '%s' (%d), libc '%s' (%d)", \
		      fmt, a, na, b, nb);				\
	} while (0)

static void test_integers(void)
{
	static const char *const fmts[] = {
		"%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%8.3d", "%-8.3d|", "%+.0d",
		"%.0d", "%x", "%#x", "%#8x", "%#08x", "%X", "%#X", "%o", "%#o", "%#.3o", "%u",
		"%08.3x", "%-#10x|", "%hd", "%hhd", "%hx", "%hhu",
	};
	static const int vals[] = { 0, 1, -1, 42, -42, 255, 4096, INT_MAX, INT_MIN, 0x7f, -129 };

	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
		for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++)
			SAME(fmts[f], vals[v]);
}

static void test_long(void)
{
	static const long long vals[] = { 0, 1, -1, LLONG_MAX, LLONG_MIN, 0x123456789abcLL };

	for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
		SAME("%lld", vals[v]);
		SAME("%llx", (unsigned long long)vals[v]);
		SAME("%016llx", (unsigned long long)vals[v]);
		SAME("%ld", (long)vals[v]);
		SAME("%lu", (unsigned long)vals[v]);
		SAME("%zu", (size_t)vals[v]);
		SAME("%#llo", (unsigned long long)vals[v]);
	}
}

static void test_strings(void)
{
	SAME("%s", "hello");
	SAME("%10s|", "hi");
	SAME("%-10s|", "hi");
	SAME("%.2s", "hello");
	SAME("%*s|", 6, "ab");
	SAME("%-*s|", 6, "ab");
	SAME("%*s|", -6, "ab");
	SAME("%.*s", 3, "abcdef");
	SAME("%c%c", 'x', 'y');
	SAME("%3c|%-3c|", 'a', 'b');
	SAME("100%% %s", "sure");
	SAME("%p", (void *)0x1234);
}

static void test_truncation(void)
{
	char buf[8];
	int n;

	memset(buf, 'X', sizeof(buf));
	n = ck_snprintf(buf, sizeof(buf), "%s", "0123456789");
	CHECK(n == 10, "return %d, want 10", n);
	CHECK(!strcmp(buf, "0123456"), "got '%s'", buf);
	n = ck_snprintf(buf, 1, "%d", 12345);
	CHECK(n == 5 && buf[0] == '\0', "size 1: n=%d buf[0]=%d", n, buf[0]);
	buf[0] = 'Q';
	n = ck_snprintf(buf, 0, "%d", 12345);
	CHECK(n == 5 && buf[0] == 'Q', "size 0 writes nothing: n=%d", n);
	{
		const char *fmt = "abc%";	/* through a variable: gcc rejects the literal */

		n = ck_snprintf(buf, sizeof(buf), fmt, 0);
	}
	CHECK(!strcmp(buf, "abc"), "a lone trailing %% prints nothing: '%s'", buf);
}

/* ck_slug(): the id components of the LAVA result lines (docs/user/results.md). */
/* ck_appendf: pieces that fit are joined; the length counts what did not fit, as snprintf's. */
static void test_append(void)
{
	char buf[8], want[64];
	size_t len = 0;

	memset(buf, 'x', sizeof(buf));
	ck_appendf(buf, sizeof(buf), &len, "ab");
	ck_appendf(buf, sizeof(buf), &len, "%d", 123);
	CHECK(len == 5 && !strcmp(buf, "ab123"), "'%s' (%zu)", buf, len);
	ck_appendf(buf, sizeof(buf), &len, "%s", "cdefg");
	snprintf(want, sizeof(want), "ab123cdefg");
	CHECK(len == strlen(want) && !strncmp(buf, want, sizeof(buf) - 1) &&
	      buf[sizeof(buf) - 1] == '\0', "cut at the end: '%s' (%zu)", buf, len);
	ck_appendf(buf, sizeof(buf), &len, "%s", "more");
	CHECK(len == strlen(want) + 4 && !strncmp(buf, want, sizeof(buf) - 1),
	      "nothing written past the end: '%s' (%zu)", buf, len);
	len = 0;
	ck_appendf(NULL, 0, &len, "%s", "abc");
	CHECK(len == 3, "size 0: only counted (%zu)", len);
}

static void test_slug(void)
{
	static const struct { const char *in, *out; } rows[] = {
		{ "mca_enabled", "mca_enabled" },
		{ "processor context corrupt (PCC)", "processor_context_corrupt_pcc" },
		{ "per-page copy_page", "per-page_copy_page" },
		{ "  a..b  ", "a_b" },
		{ "", "_" },
		{ "(#)", "_" },
		{ "256K", "256k" },
	};
	char buf[64];
	size_t n;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		n = ck_slug(buf, sizeof(buf), rows[i].in);
		CHECK(!strcmp(buf, rows[i].out) && n == strlen(rows[i].out),
		      "'%s' became '%s' (%zu), want '%s'", rows[i].in, buf, n, rows[i].out);
	}
	n = ck_slug(buf, 5, "abc def ghi");
	CHECK(n == 3 && !strcmp(buf, "abc"), "truncated to '%s' (%zu)", buf, n);
	n = ck_slug(buf, 1, "abc");
	CHECK(n == 0 && buf[0] == '\0', "size 1 gave '%s'", buf);
}

int main(void)
{
	return RUN_TESTS(test_integers, test_long, test_strings, test_truncation, test_append,
			 test_slug);
}
