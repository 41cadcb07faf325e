// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cmdline_text.c - what the firmware hands over becomes one ASCII command line, and
 * whatever cannot be taken whole is named with its byte offset and counted as an error:
 * comments, the length limit (a 64 KiB file ending in a bad word), NUL bytes, non-ASCII in
 * the file and in LoadOptions, binary LoadOptions.
 */
#include "kernel/lib/cmdline_text.h"
#include "tests/host/host_test.h"

static char out[BOOT_CMDLINE_MAX];

static size_t file(const char *text, size_t len, bool more, struct boot_notes *n)
{
	memset(n, 0, sizeof(*n));
	return cmdline_from_file((const u8 *)text, len, more, out, sizeof(out), n);
}

static bool note_has(const struct boot_notes *n, const char *s)
{
	for (u32 i = 0; i < n->n; i++)
		if (strstr(n->text[i], s))
			return true;
	return false;
}

static void test_comments_and_lines(void)
{
	static const char f[] = "# a header\n# with two lines \xc3\xa9\ntests=cpu\n"
				"  console=ttyS1\r\n#x\nexit=qemu\n";
	struct boot_notes n;

	file(f, sizeof(f) - 1, false, &n);
	CHECK(!strcmp(out, "tests=cpu   console=ttyS1   exit=qemu"), "joined: '%s'", out);
	CHECK(n.errors == 0 && n.n == 0, "comments may hold any bytes: %u notes", n.n);
}

static void test_long_file(void)
{
	static char big[65536];
	struct boot_notes n;
	size_t len;

	/* A 4 KiB file with a long comment header is fine. */
	memset(big, 0, sizeof(big));
	for (size_t i = 0; i < 40; i++) {
		memset(big + i * 100, '.', 99);
		big[i * 100] = '#';
		big[i * 100 + 99] = '\n';
	}
	strcpy(big + 4000, "tests=cpu exit=qemu\n");
	len = file(big, strlen(big), false, &n);
	CHECK(n.errors == 0 && !strcmp(out, "tests=cpu exit=qemu"), "4 KiB with comments: '%s'",
	      out);
	/* 64 KiB of words ending in a bad one: the cut is named, an error. */
	for (size_t i = 0; i + 10 < sizeof(big); i += 10)
		memcpy(big + i, "tests=all ", 10);
	strcpy(big + sizeof(big) - 32, "frobnicate=1 crash=gp");
	len = file(big, BOOT_CMDLINE_FILE_MAX, true, &n);
	CHECK(len < BOOT_CMDLINE_MAX && n.errors == 2, "cut twice: %zu chars, %u errors", len,
	      n.errors);
	CHECK(note_has(&n, "longer than 4095 characters: cut at input byte 4095"),
	      "the cut is named with its offset: '%s'", n.text[0]);
	CHECK(note_has(&n, "larger than 16384 bytes"), "the file limit is named");
}

static void test_nul_and_non_ascii(void)
{
	static const char nul[] = "tests=cpu\0crash=gp\n";
	static const char utf8[] = "tests=cpu\xe2\x82\xac cl\xc3\xa9=valeur a\xc2\xa0"
				   "b\n";
	struct boot_notes n;

	file(nul, sizeof(nul) - 1, false, &n);
	CHECK(!strcmp(out, "tests=cpu") && n.errors == 1 &&
	      note_has(&n, "NUL byte at offset 9 (line 1): the 10 bytes from there on"),
	      "NUL: '%s' / '%s'", out, n.text[0]);
	file(utf8, sizeof(utf8) - 1, false, &n);
	CHECK(!strcmp(out, "tests=cpu" "???" " cl" "??" "=valeur a" "??" "b"),
	      "non-ASCII as '?': '%s'", out);
	CHECK(n.errors == 1 && note_has(&n, "byte 0xe2 at offset 9 (line 1)"),
	      "the first one is named: '%s'", n.text[0]);
	CHECK(note_has(&n, "7 bytes in all"), "and the count of all of them");
}

static void test_load_options(void)
{
	static const u16 shell[] = { 't', 'e', 's', 't', 's', '=', 'c', 'p', 'u', 0x20ac, ' ',
				     'x', 0 };
	static const u16 binary[] = { 0x0001, 0x0000, 0x1234, 0x0041 };
	static const u16 plain[] = { 'e', 'x', 'i', 't', '=', 'q', 'e', 'm', 'u' };
	struct boot_notes n;

	memset(&n, 0, sizeof(n));
	CHECK(cmdline_from_ucs2(shell, 13, out, sizeof(out), &n) == 12 &&
	      !strcmp(out, "tests=cpu? x"), "a non-ASCII character as '?': '%s'", out);
	CHECK(n.errors == 1 && note_has(&n, "U+20AC at 9"), "named: '%s'", n.text[0]);
	memset(&n, 0, sizeof(n));
	CHECK(cmdline_from_ucs2(binary, 4, out, sizeof(out), &n) == -1 && out[0] == '\0',
	      "binary LoadOptions are not a command line");
	CHECK(n.errors == 0 && note_has(&n, "not text (character 0x0001 at 0)"),
	      "... said in a note that is not an error: '%s'", n.text[0]);
	memset(&n, 0, sizeof(n));
	CHECK(cmdline_from_ucs2(plain, 9, out, sizeof(out), &n) == 9 && n.n == 0 &&
	      !strcmp(out, "exit=qemu"), "no terminating NUL needed");
}

static void test_notes_overflow(void)
{
	struct boot_notes n;

	memset(&n, 0, sizeof(n));
	for (int i = 0; i < 10; i++)
		boot_note(&n, i & 1, "note %d", i);
	CHECK(n.n == BOOT_NOTES_MAX && n.dropped == 10 - BOOT_NOTES_MAX && n.errors == 5,
	      "held %u, dropped %u, errors %u", n.n, n.dropped, n.errors);
}

int main(void)
{
	return RUN_TESTS(test_comments_and_lines, test_long_file, test_nul_and_non_ascii,
			 test_load_options, test_notes_overflow);
}
