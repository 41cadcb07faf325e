// SPDX-License-Identifier: GPL-2.0-only
/*
 * dimm_labels.c - the parser of rasdaemon's DIMM labels format (ras-mc-ctl's labels.db):
 *
 *	# comment
 *	Vendor: <board vendor>
 *	  Model: <board name>[, <board name> ...]	(also Board:; Product: names a system)
 *	    <label>: <mc>.<row>.<channel>[, ...];  <label>: ...;
 *
 * Each line is copied out, trimmed and taken as a keyword line or a list of entries. The
 * rules and where this is stricter than rasdaemon are in ktest/oracle/NOTES.md.
 */
#include "kernel/lib/string.h"
#include "mce/dimm_labels.h"

#define LOC_MAX_NUMBERS	4		/* mc and up to three EDAC layers */
#define LOC_NUMBER_MAX	65535

enum section { SEC_NONE, SEC_VENDOR, SEC_BOARD };

struct parse {
	struct dimm_labels *db;
	const char *vendor, *board;
	enum section sec;
	bool vendor_match, board_match;
	int layers;			/* numbers per location in this section (0: none yet) */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/* @s trimmed in place; returns its new start. */
static char *strip(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Case-blind equality of @a (already trimmed) with @b trimmed. */
static bool name_eq(const char *a, const char *b)
{
	size_t nb;

	while (is_blank(*b))
		b++;
	nb = strlen(b);
	while (nb && is_blank(b[nb - 1]))
		nb--;
	if (strlen(a) != nb)
		return false;
	for (size_t i = 0; i < nb; i++)
		if (to_lower(a[i]) != to_lower(b[i]))
			return false;
	return true;
}

/* If @s is "<key> :" (any case), the text after the colon; else NULL. */
static char *after_key(char *s, const char *key)
{
	while (*key && to_lower(*s) == *key)
		s++, key++;
	if (*key)
		return NULL;
	while (is_blank(*s))
		s++;
	return *s == ':' ? s + 1 : NULL;
}

/* Whether the ","/";" list @s names @want; @s is cut up. */
static bool list_names(char *s, const char *want)
{
	char *tok = s;

	for (char *p = s;; p++) {
		bool last = *p == '\0';

		if (last || *p == ',' || *p == ';') {
			*p = '\0';
			if (name_eq(strip(tok), want))
				return true;
			if (last)
				return false;
			tok = p + 1;
		}
	}
}

static int fail(struct parse *ps, unsigned int line, const char *why)
{
	ps->db->bad_line = line;
	ps->db->error = why;
	return -1;
}

/* A location "n.n[.n[.n]]" into @v; the count of numbers or a negative count when bad. */
static int parse_loc(const char *s, unsigned int v[LOC_MAX_NUMBERS])
{
	int n = 0;

	for (;;) {
		unsigned int x = 0;
		int digits = 0;

		for (; *s >= '0' && *s <= '9'; s++, digits++) {
			x = x * 10 + (unsigned int)(*s - '0');
			if (x > LOC_NUMBER_MAX)
				return -1;
		}
		if (!digits || n == LOC_MAX_NUMBERS)
			return -1;
		v[n++] = x;
		if (*s == '\0')
			return n >= 2 ? n : -1;
		if (*s++ != '.')
			return -1;
	}
}

static int keep(struct parse *ps, unsigned int line, const char *label,
		const unsigned int v[LOC_MAX_NUMBERS])
{
	struct dimm_label *d;

	if (ps->db->n == DIMM_LABELS_MAX)
		return fail(ps, line, "more locations for this board than the table holds (128)");
	d = &ps->db->e[ps->db->n++];
	d->mc = (u16)v[0];
	d->row = (u16)v[1];
	d->ch = (u16)v[2];
	memcpy(d->name, label, strlen(label) + 1);
	return 0;
}

/* One "label: loc, loc ..." entry (trimmed, non-empty). */
static int parse_entry(struct parse *ps, unsigned int line, char *s)
{
	char *colon = s, *label, *tok;
	unsigned int count = 0;

	while (*colon && *colon != ':')
		colon++;
	if (!*colon)
		return fail(ps, line, "an entry without ':' (label: mc.row.channel)");
	*colon = '\0';
	label = strip(s);
	if (!*label)
		return fail(ps, line, "an empty label");
	if (strlen(label) >= DIMM_LABEL_LEN)
		return fail(ps, line, "a label longer than 31 characters");
	tok = colon + 1;
	for (char *p = tok;; p++) {
		bool last = *p == '\0';
		unsigned int v[LOC_MAX_NUMBERS];
		int n;

		if (!last && *p != ',' && !is_blank(*p))
			continue;
		*p = '\0';
		if (p != tok) {
			n = parse_loc(tok, v);
			if (n < 0)
				return fail(ps, line, "a location that is not 2 to 4 numbers "
						      "joined by '.'");
			if (ps->layers && n != ps->layers)
				return fail(ps, line, "locations with different numbers of layers "
						      "in one section");
			ps->layers = n;
			count++;
			if (ps->vendor_match && ps->board_match && n == 3 &&
			    keep(ps, line, label, v))
				return -1;
		}
		if (last)
			break;
		tok = p + 1;
	}
	return count ? 0 : fail(ps, line, "a label with no location");
}

/* One trimmed, non-empty, non-comment line. */
static int parse_line(struct parse *ps, unsigned int line, char *s)
{
	char *rest, *piece;

	if ((rest = after_key(s, "vendor"))) {
		rest = strip(rest);
		if (!*rest)
			return fail(ps, line, "Vendor: without a name");
		ps->sec = SEC_VENDOR;
		ps->vendor_match = name_eq(rest, ps->vendor);
		ps->board_match = false;
		ps->layers = 0;
		return 0;
	}
	if ((rest = after_key(s, "model")) || (rest = after_key(s, "board")) ||
	    (rest = after_key(s, "product"))) {
		bool product = to_lower(*s) == 'p';

		if (ps->sec == SEC_NONE)
			return fail(ps, line, "Model:, Board: or Product: before any Vendor:");
		ps->sec = SEC_BOARD;
		ps->board_match = !product && list_names(rest, ps->board);
		if (ps->vendor_match && ps->board_match)
			ps->db->board_found = true;
		ps->layers = 0;
		return 0;
	}
	if (ps->sec != SEC_BOARD)
		return fail(ps, line, "labels before any Model:, Board: or Product:");
	piece = s;
	for (char *p = s;; p++) {
		bool last = *p == '\0';

		if (!last && *p != ';')
			continue;
		*p = '\0';
		piece = strip(piece);
		if (*piece && parse_entry(ps, line, piece))
			return -1;
		if (last)
			return 0;
		piece = p + 1;
	}
}

int dimm_labels_parse(struct dimm_labels *db, const char *text, size_t len,
		      const char *vendor, const char *board)
{
	struct parse ps = { .db = db, .vendor = vendor, .board = board };
	unsigned int line = 0;
	size_t i = 0;

	db->board_found = false;
	db->n = 0;
	db->bad_line = 0;
	db->error = NULL;
	while (i < len) {
		char buf[DIMM_LABELS_LINE_MAX + 1], *s;
		size_t n = 0;

		line++;
		for (; i < len && text[i] != '\n'; i++) {
			if (n == DIMM_LABELS_LINE_MAX || text[i] == '\0')
				goto bad;
			buf[n++] = text[i];
		}
		i++;			/* the newline */
		buf[n] = '\0';
		s = strip(buf);
		if (*s && *s != '#' && parse_line(&ps, line, s))
			goto refused;
	}
	return 0;
bad:
	fail(&ps, line, text[i] == '\0' ? "a NUL byte" : "a line longer than 255 characters");
refused:
	db->n = 0;
	db->board_found = false;
	return -1;
}

const char *dimm_labels_find(const struct dimm_labels *db, unsigned int mc, unsigned int row,
			     unsigned int ch)
{
	for (unsigned int i = db->n; i-- > 0;) {
		const struct dimm_label *d = &db->e[i];

		if (d->mc == mc && d->row == row && d->ch == ch)
			return d->name;
	}
	return NULL;
}
