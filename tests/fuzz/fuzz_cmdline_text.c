// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cmdline_text.c - libFuzzer target for the firmware text to command line step.
 *
 * Properties, whatever the bytes: the line is printable ASCII within the limit, with no
 * leading or trailing blank; the UCS-2 path gives the same for the bytes read as UCS-2; a
 * note is kept or counted for every problem, and an error note whenever a byte was dropped
 * or replaced.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[BOOT_CMDLINE_MAX];
	static u16 wide[BOOT_CMDLINE_FILE_MAX / 2];
	struct boot_notes notes;
	size_t n, chars = size / 2 < sizeof(wide) / 2 ? size / 2 : sizeof(wide) / 2;
	bool odd = false;
	long w;

	memset(&notes, 0, sizeof(notes));
	n = cmdline_from_file(data, size, false, out, sizeof(out), &notes);
	check_line(out, n, sizeof(out));
	for (size_t i = 0; i < size; i++)
		odd |= data[i] == 0 || (data[i] > 0x7e) ||
		       (data[i] < 0x20 && data[i] != '\n' && data[i] != '\r' && data[i] != '\t');
	if (odd && !notes.errors && !memchr(data, '#', size))
		abort();		/* a replaced or dropped byte outside comments: an error */
	if (notes.n > BOOT_NOTES_MAX)
		abort();

	memcpy(wide, data, chars * 2);
	memset(&notes, 0, sizeof(notes));
	w = cmdline_from_ucs2(wide, chars, out, sizeof(out), &notes);
	if (w < 0) {
		if (out[0] || notes.n != 1 || notes.errors)
			abort();
	} else {
		check_line(out, (size_t)w, sizeof(out));
	}
	return 0;
}
