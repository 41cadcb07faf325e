// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cmdline_text.c - libFuzzer target for the firmware text to command line step.
 *
 * Properties, whatever the bytes: the line is printable ASCII within the limit, with no
 * leading or trailing blank, from the file and from LoadOptions; a note is kept or counted for
 * every problem, and an error note whenever a byte was dropped or replaced (a NUL with more
 * after it, a byte that is not printable ASCII outside a comment); LoadOptions that are not
 * text leave one note, no error and an empty line. And one oracle: the same text saved as
 * UTF-16LE or UTF-16BE with its byte-order mark gives the same line as its bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/cmdline_text.h"

static void check_line(const char *s, size_t n, size_t size)
{
	if (n >= size || strlen(s) != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			abort();
	if (n && (s[0] == ' ' || s[n - 1] == ' '))
		abort();
}

/* A byte the file's rules replace or drop: a NUL with a byte other than NUL after it... */
static bool bad_bytes(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		if (!data[i]) {
			for (size_t j = i + 1; j < size; j++)
				if (data[j])
					return true;
			return false;
		}
		/* ... or one that is not printable ASCII or a blank. */
		if (data[i] > 0x7e || (data[i] < 0x20 && data[i] != '\n' && data[i] != '\r' &&
				       data[i] != '\t'))
			return true;
	}
	return false;
}

static bool marked(const uint8_t *data, size_t size)
{
	return (size >= 2 && ((data[0] == 0xff && data[1] == 0xfe) ||
			      (data[0] == 0xfe && data[1] == 0xff))) ||
	       (size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf);
}

/* The bytes as UTF-16 with its mark: the same line, whichever the byte order. */
static void same_as_utf16(const uint8_t *data, size_t size, const char *line)
{
	static uint8_t wide[2 + 2 * BOOT_CMDLINE_FILE_MAX];
	static char again[BOOT_CMDLINE_MAX];
	struct boot_notes notes;

	if (size > BOOT_CMDLINE_FILE_MAX || marked(data, size))
		return;
	for (int big = 0; big < 2; big++) {
		wide[0] = big ? 0xfe : 0xff;
		wide[1] = big ? 0xff : 0xfe;
		for (size_t i = 0; i < size; i++) {
			wide[2 + 2 * i + big] = data[i];
			wide[2 + 2 * i + !big] = 0;
		}
		memset(&notes, 0, sizeof(notes));
		cmdline_from_file(wide, 2 + 2 * size, false, again, sizeof(again), &notes);
		if (strcmp(line, again))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[BOOT_CMDLINE_MAX];
	struct boot_notes notes;
	size_t n;
	long w;

	memset(&notes, 0, sizeof(notes));
	n = cmdline_from_file(data, size, false, out, sizeof(out), &notes);
	check_line(out, n, sizeof(out));
	if (!marked(data, size) && bad_bytes(data, size) && !notes.errors &&
	    !memchr(data, '#', size))
		abort();		/* a replaced or dropped byte outside comments: an error */
	if (notes.n > BOOT_NOTES_MAX)
		abort();
	same_as_utf16(data, size, out);

	memset(&notes, 0, sizeof(notes));
	w = cmdline_from_options(data, size, out, sizeof(out), &notes);
	if (w < 0) {
		if (out[0] || notes.n != 1 || notes.errors)
			abort();
	} else {
		check_line(out, (size_t)w, sizeof(out));
	}
	return 0;
}
