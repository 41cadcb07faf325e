// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cmdline_text.c - what the firmware hands over becomes one ASCII command line, and
 * whatever cannot be taken whole is named with its byte offset and counted as an error:
 * comments, the length limit (a 64 KiB file ending in a bad word), NUL bytes, non-ASCII in
 * the file and in LoadOptions, byte-order marks (UTF-8 dropped, UTF-16LE/BE decoded), UTF-16
 * that is not ASCII or has half a character, 8-bit and binary LoadOptions.
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
	/* NULs that only pad the end are no error (a NUL before the end is, above). */
	file("tests=cpu\n\0\0\0", 13, false, &n);
	CHECK(!strcmp(out, "tests=cpu") && n.errors == 0 &&
	      note_has(&n, "its last 3 bytes, from offset 10, are NUL: ignored"),
	      "NUL padding: '%s' / '%s'", out, n.text[0]);
}

/* @text as UTF-16 (@big: big-endian), with a byte-order mark when @bom; returns its bytes. */
static size_t utf16(const char *text, size_t len, bool big, bool bom, u8 *buf)
{
	size_t n = 0;

	if (bom) {
		buf[n++] = big ? 0xfe : 0xff;
		buf[n++] = big ? 0xff : 0xfe;
	}
	for (size_t i = 0; i < len; i++, n += 2) {
		buf[n + big] = (u8)text[i];
		buf[n + !big] = 0;
	}
	return n;
}

static size_t file_bytes(const u8 *b, size_t len, struct boot_notes *n)
{
	memset(n, 0, sizeof(*n));
	return cmdline_from_file(b, len, false, out, sizeof(out), n);
}

/* The files: a UTF-8 byte-order mark, UTF-16LE and BE with theirs, CRLF lines. */
static void test_marked_files(void)
{
	static const char text[] = "# saved by an editor\r\ntests=cpu exit=qemu\r\n";
	static u8 buf[512];
	struct boot_notes n;
	size_t len;

	memcpy(buf, "\xef\xbb\xbf", 3);
	memcpy(buf + 3, text, sizeof(text) - 1);
	file_bytes(buf, 3 + sizeof(text) - 1, &n);
	CHECK(!strcmp(out, "tests=cpu exit=qemu") && n.errors == 0, "UTF-8 BOM: '%s', %u errors",
	      out, n.errors);
	CHECK(note_has(&n, "UTF-8 byte-order mark (EF BB BF) dropped"), "and said");
	for (int big = 0; big < 2; big++) {
		len = utf16(text, sizeof(text) - 1, big, true, buf);
		file_bytes(buf, len, &n);
		CHECK(!strcmp(out, "tests=cpu exit=qemu") && n.errors == 0,
		      "UTF-16%s with its mark: '%s', %u errors", big ? "BE" : "LE", out, n.errors);
		CHECK(note_has(&n, big ? "UTF-16BE (byte-order mark FE FF): decoded" :
			       "UTF-16LE (byte-order mark FF FE): decoded"), "said: '%s'", n.text[0]);
	}
	/* A UEFI shell script ends in a NUL character or two: padding, no error. */
	len = utf16("tests=cpu\r\n\0\0", 13, false, true, buf);
	file_bytes(buf, len, &n);
	CHECK(!strcmp(out, "tests=cpu") && n.errors == 0 && note_has(&n, "are NUL: ignored"),
	      "NUL padding: '%s', %u errors", out, n.errors);
}

/* UTF-16 that is not ASCII, that has a NUL inside, or that ends in half a character. */
static void test_bad_utf16(void)
{
	static u8 buf[512];
	struct boot_notes n;
	size_t len;

	len = utf16("tests=cpu x", 11, false, true, buf);
	buf[2 + 9 * 2] = 0xac;		/* ' ' becomes U+20AC at byte offset 20 */
	buf[2 + 9 * 2 + 1] = 0x20;
	file_bytes(buf, len, &n);
	CHECK(!strcmp(out, "tests=cpu?x") && n.errors == 1 &&
	      note_has(&n, "character U+20AC at byte offset 20 (line 1) is not printable ASCII"),
	      "a named error: '%s' '%s'", out, n.n > 1 ? n.text[1] : "");
	len = utf16("tests=cpu\0crash=gp", 18, true, true, buf);
	file_bytes(buf, len, &n);
	CHECK(!strcmp(out, "tests=cpu") && n.errors == 1 &&
	      note_has(&n, "NUL character at byte offset 20 (line 1): the 18 bytes from there on"),
	      "a NUL inside: '%s' / '%s'", out, n.n > 1 ? n.text[1] : "");
	len = utf16("tests=cpu", 9, false, true, buf);
	buf[len++] = 'x';
	file_bytes(buf, len, &n);
	CHECK(!strcmp(out, "tests=cpu") && n.errors == 1 &&
	      note_has(&n, "the last one (offset 20) is half a character"), "odd length: '%s'",
	      n.n > 1 ? n.text[1] : "");
	/* Without its mark it is bytes with NULs: named at offset 1, with the likely cause. */
	len = utf16("tests=cpu", 9, false, false, buf);
	file_bytes(buf, len, &n);
	CHECK(n.errors == 1 && !strcmp(out, "t") &&
	      note_has(&n, "NUL byte at offset 1 (line 1): the 17 bytes from there on are ignored "
		       "(UTF-16 without its byte-order mark?)"), "unmarked: '%s' '%s'", out,
	      n.text[0]);
}

static long options(const u8 *b, size_t len, struct boot_notes *n)
{
	memset(n, 0, sizeof(*n));
	return cmdline_from_options(b, len, out, sizeof(out), n);
}

static void test_load_options(void)
{
	static const u8 guid[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f, 0x59, 0x4d,
				     0x85, 0x0e, 0xe2, 0x1a, 0x52, 0x2c, 0x59, 0xb2 };
	static const u8 binary[] = { 0x01, 0x00, 0x00, 0x00, 0x34, 0x12, 0x41, 0x00 };
	static u8 buf[512];
	struct boot_notes n;
	size_t len;

	/* The UEFI shell: UCS-2 without a mark, a NUL at the end. */
	len = utf16("ck.efi tests=cpu\0", 17, false, false, buf);
	CHECK(options(buf, len, &n) == 16 && !strcmp(out, "ck.efi tests=cpu") && n.n == 0,
	      "the shell's UCS-2: '%s', %u notes", out, n.n);
	len = utf16("tests=cpuE x\0", 13, false, false, buf);
	buf[18] = 0xac;			/* 'E' becomes U+20AC */
	buf[19] = 0x20;
	CHECK(options(buf, len, &n) == 12 && !strcmp(out, "tests=cpu? x"),
	      "a non-ASCII character as '?': '%s'", out);
	CHECK(n.errors == 1 && note_has(&n, "LoadOptions: character U+20AC at byte offset 18 is "
					"not printable ASCII"), "named: '%s'", n.text[0]);
	/* A NUL before the end, with text after it: an error naming the offset. */
	len = utf16("tests=cpu\0crash=gp", 18, false, false, buf);
	CHECK(options(buf, len, &n) == 9 && n.errors == 1 &&
	      note_has(&n, "LoadOptions: NUL character at byte offset 18: the 18 bytes"),
	      "a NUL inside: '%s'", n.text[0]);
	/* Marked: the same rules as the file. */
	for (int big = 0; big < 2; big++) {
		len = utf16("tests=cpu exit=qemu", 19, big, true, buf);
		CHECK(options(buf, len, &n) == 19 && !strcmp(out, "tests=cpu exit=qemu") &&
		      n.errors == 0, "UTF-16%s marked: '%s'", big ? "BE" : "LE", out);
	}
	memcpy(buf, "\xef\xbb\xbftests=cpu", 12);
	CHECK(options(buf, 12, &n) == 9 && !strcmp(out, "tests=cpu") && n.errors == 0,
	      "UTF-8 marked: '%s'", out);
	/* efibootmgr without -u: 8-bit ASCII, odd lengths too. */
	CHECK(options((const u8 *)"tests=cpu", 9, &n) == 9 && !strcmp(out, "tests=cpu") &&
	      n.errors == 0 && note_has(&n, "8-bit ASCII, not UCS-2"), "8-bit: '%s'", out);
	/* Binary data: not a command line, and no error. */
	CHECK(options(binary, sizeof(binary), &n) == -1 && out[0] == '\0' && n.errors == 0 &&
	      note_has(&n, "not text (character 0x0001 at byte offset 0)"),
	      "binary LoadOptions: '%s'", n.text[0]);
	CHECK(options(guid, sizeof(guid), &n) == -1 && n.errors == 0 &&
	      note_has(&n, "not text (no ASCII character before byte offset 16)"),
	      "EDK2's auto-created boot entry GUID: '%s'", n.text[0]);
	len = utf16("\0tests=cpu", 10, false, false, buf);
	CHECK(options(buf, len, &n) == -1 && n.errors == 0, "a NUL first, then data: binary");
	len = utf16("exit=qemu", 9, false, false, buf);
	CHECK(options(buf, len, &n) == 9 && n.n == 0 && !strcmp(out, "exit=qemu"),
	      "no terminating NUL needed");
	CHECK(options(buf, 4, &n) == 2 && n.n == 0 && !strcmp(out, "ex"), "nor padding");
	memset(buf, 0, 8);
	CHECK(options(buf, 8, &n) == 0 && n.n == 0, "all NULs: an empty line, nothing to say");
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
			 test_marked_files, test_bad_utf16, test_load_options, test_notes_overflow);
}
