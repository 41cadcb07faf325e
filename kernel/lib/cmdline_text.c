// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline_text.c - the firmware's command-line text made into one ASCII line (see the
 * header for the rules).
 */
#include "kernel/lib/cmdline_text.h"
#include "kernel/lib/format.h"

void boot_note(struct boot_notes *notes, bool error, const char *fmt, ...)
{
	va_list ap;

	if (error)
		notes->errors++;
	if (notes->n == BOOT_NOTES_MAX) {
		notes->dropped++;
		return;
	}
	notes->error[notes->n] = error;
	va_start(ap, fmt);
	ck_vsnprintf(notes->text[notes->n], BOOT_NOTE_LEN, fmt, ap);
	va_end(ap);
	notes->n++;
}

/* Appends @c unless the line is full; the first character that does not fit is noted. */
struct line {
	char *out;
	size_t size, n;
	bool cut;
	const char *what;
	size_t total;		/* characters the input asked for */
};

static void put(struct line *l, char c, struct boot_notes *notes, size_t offset)
{
	l->total++;
	if (l->n + 1 < l->size) {
		l->out[l->n++] = c;
		return;
	}
	if (!l->cut) {
		l->cut = true;
		boot_note(notes, true, "%s: the command line is longer than %zu characters: cut "
			  "at input byte %zu; the rest is ignored", l->what, l->size - 1, offset);
	}
}

/* Drop leading and trailing blanks and squeeze nothing else: the parser splits words. */
static size_t trim(char *s, size_t n)
{
	size_t i = 0, j;

	while (n && s[n - 1] == ' ')
		n--;
	while (i < n && s[i] == ' ')
		i++;
	for (j = 0; i < n; j++, i++)
		s[j] = s[i];
	s[j] = '\0';
	return j;
}

size_t cmdline_from_file(const u8 *in, size_t len, bool more, char *out, size_t size,
			 struct boot_notes *notes)
{
	struct line l = { .out = out, .size = size, .what = "copykernel.cmdline" };
	size_t line_no = 1, bad = 0;
	bool line_start = true;

	if (!size)
		return 0;
	for (size_t i = 0; i < len; i++) {
		u8 c = in[i];

		if (c == 0) {
			boot_note(notes, true, "copykernel.cmdline: NUL byte at offset %zu (line %zu): "
				  "the %zu bytes from there on are ignored", i, line_no, len - i);
			break;
		}
		if (line_start && c == '#') {
			while (i + 1 < len && in[i + 1] != '\n' && in[i + 1] != 0)
				i++;	/* a comment may hold any text */
			continue;
		}
		line_start = c == '\n';
		if (c == '\n')
			line_no++;
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c < 0x20 || c > 0x7e) {
			if (!bad++)
				boot_note(notes, true, "copykernel.cmdline: byte 0x%02x at offset %zu "
					  "(line %zu) is not printable ASCII: written as '?' (so the "
					  "word holding it is reported below)", c, i, line_no);
			c = '?';
		}
		put(&l, (char)c, notes, i);
	}
	if (bad > 1)
		boot_note(notes, false, "copykernel.cmdline: %zu bytes in all were not printable "
			  "ASCII", bad);
	if (more)
		boot_note(notes, true, "copykernel.cmdline is larger than %zu bytes: only those "
			  "were read, the rest is ignored", len);
	out[l.n] = '\0';
	return trim(out, l.n);
}

long cmdline_from_ucs2(const u16 *in, size_t chars, char *out, size_t size,
		       struct boot_notes *notes)
{
	struct line l = { .out = out, .size = size, .what = "LoadOptions" };
	size_t n = 0, bad = 0;

	if (!size)
		return -1;
	out[0] = '\0';
	while (n < chars && in[n])
		n++;
	/* Text has no control characters but blanks; anything else is a binary blob. */
	for (size_t i = 0; i < n; i++) {
		if (in[i] < 0x20 && in[i] != '\t' && in[i] != '\r' && in[i] != '\n') {
			boot_note(notes, false, "LoadOptions (%zu bytes) are not text (character "
				  "0x%04x at %zu): not used as a command line", chars * 2, in[i], i);
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		u16 c = in[i];

		if (c == '\t' || c == '\r' || c == '\n')
			c = ' ';
		if (c > 0x7e) {
			if (!bad++)
				boot_note(notes, true, "LoadOptions: character U+%04X at %zu is not "
					  "ASCII: written as '?' (so the word holding it is reported "
					  "below)", c, i);
			c = '?';
		}
		put(&l, (char)c, notes, i * 2);
	}
	if (bad > 1)
		boot_note(notes, false, "LoadOptions: %zu characters in all were not ASCII", bad);
	out[l.n] = '\0';
	return (long)trim(out, l.n);
}
