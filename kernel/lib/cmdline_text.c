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

/* The text being read: its bytes, where its characters start and how wide they are. */
struct src {
	const u8 *p;
	size_t len;		/* bytes */
	size_t start;		/* the first character's offset (after a byte-order mark) */
	unsigned int width;	/* 1: bytes; 2: UTF-16 */
	bool big;		/* UTF-16BE */
	bool file;		/* copykernel.cmdline: comments and line numbers */
	const char *what;	/* "copykernel.cmdline" or "LoadOptions", for the notes */
};

/* The character at byte offset @off; false when no whole one starts there. */
static bool char_at(const struct src *s, size_t off, u32 *c)
{
	if (off >= s->len || s->len - off < s->width)
		return false;
	if (s->width == 1)
		*c = s->p[off];
	else if (s->big)
		*c = (u32)s->p[off] << 8 | s->p[off + 1];
	else
		*c = s->p[off] | (u32)s->p[off + 1] << 8;
	return true;
}

static bool zero_from(const struct src *s, size_t off)
{
	for (; off < s->len; off++)
		if (s->p[off])
			return false;
	return true;
}

/* Appends @c unless the line is full; the first character that does not fit is noted. */
struct line {
	char *out;
	size_t size, n;
	bool cut;
	const char *what;
};

static void put(struct line *l, char c, struct boot_notes *notes, size_t offset)
{
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

/* " (line 3)" in the file's notes; LoadOptions are one line. */
static const char *line_of(const struct src *s, size_t line_no, char *buf, size_t size)
{
	buf[0] = '\0';
	if (s->file)
		ck_snprintf(buf, size, " (line %zu)", line_no);
	return buf;
}

/* Bytes 0 and 1 are a NUL and printable ASCII: UTF-16 that lost its byte-order mark. */
static bool looks_utf16(const struct src *s, size_t off)
{
	const u8 *p = s->p;

	return s->width == 1 && !s->start && off < 2 && s->len >= 2 &&
	       ((!p[0] && p[1] >= 0x20 && p[1] <= 0x7e) || (!p[1] && p[0] >= 0x20 && p[0] <= 0x7e));
}

/*
 * A NUL at @off. Only NULs after it: padding (said for the file, silent for LoadOptions,
 * whose text ends in one). Anything else after it: an error, and the rest is not taken.
 */
static void nul_at(const struct src *s, size_t off, size_t line_no, struct boot_notes *notes)
{
	char at[24];

	line_of(s, line_no, at, sizeof(at));
	if (zero_from(s, off)) {
		if (s->file)
			boot_note(notes, false, "%s: its last %zu bytes, from offset %zu, are NUL: "
				  "ignored", s->what, s->len - off, off);
		return;
	}
	boot_note(notes, true, "%s: NUL %s at %soffset %zu%s: the %zu bytes from there on are "
		  "ignored%s", s->what, s->width == 1 ? "byte" : "character",
		  s->width == 1 ? "" : "byte ", off, at, s->len - off,
		  looks_utf16(s, off) ? " (UTF-16 without its byte-order mark?)" : "");
}

static void not_ascii(const struct src *s, u32 c, size_t off, size_t line_no,
		      struct boot_notes *notes)
{
	char at[24];

	line_of(s, line_no, at, sizeof(at));
	if (s->width == 1)
		boot_note(notes, true, "%s: byte 0x%02x at offset %zu%s is not printable ASCII: "
			  "written as '?' (so the word holding it is reported below)", s->what, c,
			  off, at);
	else
		boot_note(notes, true, "%s: character U+%04X at byte offset %zu%s is not printable "
			  "ASCII: written as '?' (so the word holding it is reported below)",
			  s->what, c, off, at);
}

/* The offset of a comment's last character: the one before its line's end or a NUL. */
static size_t comment_end(const struct src *s, size_t off)
{
	u32 c;

	while (char_at(s, off + s->width, &c) && c != '\n' && c != 0)
		off += s->width;
	return off;
}

/* Every character of @s onto @l by the rules of the header. */
static void take(const struct src *s, struct line *l, struct boot_notes *notes)
{
	size_t line_no = 1, bad = 0, off;
	bool line_start = true;
	u32 c;

	for (off = s->start; char_at(s, off, &c); off += s->width) {
		if (c == 0) {
			nul_at(s, off, line_no, notes);
			break;
		}
		if (s->file && line_start && c == '#') {
			off = comment_end(s, off);	/* a comment may hold any text */
			continue;
		}
		line_start = c == '\n';
		line_no += c == '\n';
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c < 0x20 || c > 0x7e) {
			if (!bad++)
				not_ascii(s, c, off, line_no, notes);
			c = '?';
		}
		put(l, (char)c, notes, off);
	}
	if (bad > 1)
		boot_note(notes, false, "%s: %zu %s in all were not printable ASCII", s->what, bad,
			  s->width == 1 ? "bytes" : "characters");
	if (off < s->len && !char_at(s, off, &c) && s->p[off])
		boot_note(notes, true, "%s: UTF-16 of an odd number of bytes: the last one (offset "
			  "%zu) is half a character: ignored", s->what, off);
}

/* A byte-order mark sets the encoding (and is noted); false when there is none. */
static bool mark(struct src *s, struct boot_notes *notes)
{
	const u8 *p = s->p;

	if (s->len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		*s = (struct src){ .p = p, .len = s->len, .start = 3, .width = 1, .file = s->file,
				   .what = s->what };
		boot_note(notes, false, "%s: UTF-8 byte-order mark (EF BB BF) dropped", s->what);
		return true;
	}
	if (s->len >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff))) {
		*s = (struct src){ .p = p, .len = s->len, .start = 2, .width = 2,
				   .big = p[0] == 0xfe, .file = s->file, .what = s->what };
		boot_note(notes, false, "%s: UTF-16%s (byte-order mark %s): decoded", s->what,
			  s->big ? "BE" : "LE", s->big ? "FE FF" : "FF FE");
		return true;
	}
	return false;
}

size_t cmdline_from_file(const u8 *in, size_t len, bool more, char *out, size_t size,
			 struct boot_notes *notes)
{
	struct line l = { .out = out, .size = size, .what = "copykernel.cmdline" };
	struct src s = { .p = in, .len = len, .width = 1, .file = true, .what = l.what };

	if (!size)
		return 0;
	mark(&s, notes);
	take(&s, &l, notes);
	if (more)
		boot_note(notes, true, "copykernel.cmdline is larger than %zu bytes: only those "
			  "were read, the rest is ignored", len);
	out[l.n] = '\0';
	return trim(out, l.n);
}

static bool blank_or_printable(u32 c)
{
	return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\r' || c == '\n';
}

/*
 * Unmarked LoadOptions that are plainly 8-bit ASCII (not UCS-2): printable bytes, the second
 * not a NUL (as every ASCII character's high byte in UCS-2 is), then only NULs.
 */
static bool ascii_bytes(const u8 *in, size_t len)
{
	size_t i = 0;

	if (!len || !in[0] || (len > 1 && !in[1]))
		return false;
	while (i < len && in[i] && blank_or_printable(in[i]))
		i++;
	for (; i < len; i++)
		if (in[i])
			return false;
	return true;
}

/*
 * Unmarked UCS-2 is text when what comes before its first NUL holds a printable ASCII
 * character and no control character, or when it is all NULs. Anything else is binary data
 * (EDK2's auto-created boot entries pass a GUID): said in a note that is not an error.
 */
static bool ucs2_is_text(const struct src *s, struct boot_notes *notes)
{
	size_t off = 0;
	bool ascii = false;
	u32 c;

	for (; char_at(s, off, &c) && c; off += 2) {
		if (c < 0x20 && !blank_or_printable(c))
			break;
		ascii |= c < 0x7f;
	}
	if ((ascii && (!char_at(s, off, &c) || !c)) || zero_from(s, 0))
		return true;
	if (char_at(s, off, &c) && c)
		boot_note(notes, false, "LoadOptions (%zu bytes) are not text (character 0x%04x "
			  "at byte offset %zu): not used as a command line", s->len, c, off);
	else
		boot_note(notes, false, "LoadOptions (%zu bytes) are not text (no ASCII character "
			  "before byte offset %zu): not used as a command line", s->len, off);
	return false;
}

long cmdline_from_options(const u8 *in, size_t len, char *out, size_t size,
			  struct boot_notes *notes)
{
	struct line l = { .out = out, .size = size, .what = "LoadOptions" };
	struct src s = { .p = in, .len = len, .width = 2, .what = l.what };

	if (!size)
		return -1;
	out[0] = '\0';
	if (!mark(&s, notes)) {
		if (ascii_bytes(in, len)) {
			s.width = 1;
			boot_note(notes, false, "LoadOptions are 8-bit ASCII, not UCS-2 (as "
				  "efibootmgr writes them without -u): read as such");
		} else if (!ucs2_is_text(&s, notes)) {
			return -1;
		}
	}
	take(&s, &l, notes);
	out[l.n] = '\0';
	return (long)trim(out, l.n);
}
