// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-cmdline-doc.c - the command-line reference (docs/reference/cmdline.md), written from the
 * image's own option table (init/cmdline_opts.c, linked here as the image links it).
 *
 *	build/ck-cmdline-doc [-o FILE]		write the reference (stdout without -o)
 *	build/ck-cmdline-doc --check FILE	exit 1 unless FILE is what the table gives now
 *
 * One row per key: the key, what it takes (the words the image prints after "valid:" for a
 * bad value), its default, its bounds, a short description and the docs/ page with the
 * details. A row that lacks any of these (cmdline_opt_undocumented()), or whose default the
 * parser refuses, is named on stderr and nothing is written: exit status 1. `make
 * cmdline-doc` regenerates the file; make check (tools/check.py) runs --check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init/cmdline.h"
#include "init/cmdline_opts.h"

#define DOC_MAX		(64 * 1024)

struct doc {
	char text[DOC_MAX];
	size_t len;
};

static void put(struct doc *d, const char *s)
{
	size_t n = strlen(s);

	if (d->len + n >= sizeof(d->text)) {
		fprintf(stderr, "ck-cmdline-doc: the reference outgrew %d bytes\n", DOC_MAX);
		exit(2);
	}
	memcpy(d->text + d->len, s, n + 1);
	d->len += n;
}

/* @s as the text of a Markdown table cell: '|' and HTML's specials escaped. */
static void put_cell(struct doc *d, const char *s)
{
	char c[2] = { 0 };

	put(d, " ");
	for (; *s; s++) {
		if (*s == '|')
			put(d, "\\|");
		else if (*s == '<')
			put(d, "&lt;");
		else if (*s == '>')
			put(d, "&gt;");
		else if (*s == '&')
			put(d, "&amp;");
		else {
			c[0] = *s;
			put(d, c);
		}
	}
	put(d, " |");
}

static const char *const header[] = {
	"<!-- SPDX-License-Identifier: GPL-2.0-only -->",
	"# Command-line reference",
	"",
	"This file is generated from the image's option table, `init/cmdline_opts.c`, by",
	"`host/ck-cmdline-doc.c`: do not edit it by hand. After changing the table, regenerate",
	"it with `make cmdline-doc`. `make check` fails when this file differs from what the",
	"table gives, and when a key lacks its description, default, values, bounds or page.",
	"",
	"The command line is space-separated `key=value` words. A bad value is reported with",
	"the values below and the default is used instead, or what the default cell says after",
	"\"bad value\" (`tests=` runs only the suites it names that exist); an unknown key is",
	"reported with the list of keys. A command line that cannot be read whole is reported",
	"with the byte offset: a NUL before its end, text that is neither ASCII (a UTF-8",
	"byte-order mark before it is dropped) nor UTF-16 with its byte-order mark, a file",
	"larger than 16 KiB. Any of these makes the run's verdict ERROR, never PASS: the summary",
	"line says `result=ERROR reason=cmdline`, the KTAP output ends in a failing",
	"`command_line` test that names each word and what was taken instead, and the exit",
	"status is 3 (bad command line). A run where a test failed says FAIL and still counts",
	"the command-line errors ([docs/user/command-line.md](../user/command-line.md)).",
	"\"values\" is what the image prints after `valid:` for a bad value. `tests=` and",
	"`crash=` take the suites and crash kinds the image registers, in run order: a bad",
	"value names them (`tests=?`).",
	"Each key's details are on the page in its last column.",
	"",
	"| key | values | default | bounds | description | see |",
	"|---|---|---|---|---|---|",
	NULL,
};

static void put_row(struct doc *d, const struct cmdline_opt *o)
{
	char buf[512];
	const char *page;

	snprintf(buf, sizeof(buf), "| `%s` |", o->key);
	put(d, buf);
	cmdline_opt_values(o, NULL, buf, sizeof(buf));
	put_cell(d, buf);
	if (o->on_bad)
		snprintf(buf, sizeof(buf), " `%s` (bad value: %s) |", o->def, o->on_bad);
	else
		snprintf(buf, sizeof(buf), " `%s` |", o->def);
	put(d, buf);
	cmdline_opt_bounds(o, buf, sizeof(buf));
	put_cell(d, buf[0] ? buf : "-");
	put_cell(d, o->desc);
	/* A link from docs/reference/ to the page: ".see" minus "docs/", with "../" before it. */
	page = o->see + strlen("docs/");
	snprintf(buf, sizeof(buf), " [%s](../%s) |\n", page, page);
	put(d, buf);
}

static void refused(void *ctx, const struct cmdline_msg *m)
{
	fprintf(stderr, "ck-cmdline-doc: key '%s': its default does not parse: %s\n",
		(const char *)ctx, m->text);
}

/* Every row documented and its default taken by the parser, or a message per row. */
static int rows_complete(const struct cmdline_opt *o, unsigned int nr)
{
	static const char *const crashes[] = { "none" };
	static const struct cmdline_names names = { NULL, 0, crashes, 1 };
	struct ck_config cfg;
	char line[CMDLINE_MAX_WORD + 2];
	int bad = 0;

	for (unsigned int i = 0; i < nr; i++) {
		const char *why = cmdline_opt_undocumented(&o[i]);

		if (why) {
			fprintf(stderr, "ck-cmdline-doc: key '%s' in init/cmdline_opts.c: %s\n",
				o[i].key, why);
			bad++;
			continue;
		}
		snprintf(line, sizeof(line), "%s=%s", o[i].key, o[i].def);
		cmdline_defaults(&cfg, &names);
		bad += cmdline_parse(line, &cfg, refused, (void *)o[i].key) != 0;
	}
	return bad;
}

/* The first line where @want and @have differ, both shown; 0 when they agree. */
static int compare(const char *path, const char *want, const char *have)
{
	unsigned int line = 1;
	const char *w = want, *h = have;

	while (*w && *w == *h) {
		line += *w == '\n';
		w++;
		h++;
	}
	if (!*w && !*h)
		return 0;
	while (w > want && w[-1] != '\n')
		w--;
	while (h > have && h[-1] != '\n')
		h--;
	fprintf(stderr, "ck-cmdline-doc: %s differs from the option table at line %u:\n"
		"  file:  %.*s\n  table: %.*s\n"
		"ck-cmdline-doc: regenerate it with `make cmdline-doc` (never edit it by hand)\n",
		path, line, (int)strcspn(h, "\n"), h, (int)strcspn(w, "\n"), w);
	return 1;
}

static int check_file(const char *path, const struct doc *d)
{
	static char have[DOC_MAX + 1];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = fread(have, 1, DOC_MAX, f);
	fclose(f);
	have[n] = '\0';
	return compare(path, d->text, have);
}

int main(int argc, char **argv)
{
	static struct doc d;
	unsigned int nr;
	const struct cmdline_opt *o = cmdline_opts(&nr);
	FILE *out = stdout;

	if (argc == 3 && !strcmp(argv[1], "-o"))
		out = NULL;
	else if (!(argc == 1 || (argc == 3 && !strcmp(argv[1], "--check")))) {
		fprintf(stderr, "usage: %s [-o FILE | --check FILE]\n", argv[0]);
		return 2;
	}
	if (rows_complete(o, nr)) {
		fprintf(stderr, "ck-cmdline-doc: every key needs a row complete in "
			"init/cmdline_opts.c; nothing written\n");
		return 1;
	}
	for (unsigned int i = 0; header[i]; i++) {
		put(&d, header[i]);
		put(&d, "\n");
	}
	for (unsigned int i = 0; i < nr; i++)
		put_row(&d, &o[i]);
	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check_file(argv[2], &d);
	if (!out && !(out = fopen(argv[2], "w"))) {
		perror(argv[2]);
		return 1;
	}
	fputs(d.text, out);
	return fclose(out) ? 1 : 0;
}
