// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-decode.c - the offline decoder of DRAM errors a lab copied from a log: the image's own
 * bank lines and the lines Linux's mce code prints. One JSON object per record on stdout
 * (node, umc, cs, dimm, rank, label, reason; host/decode/records.c), bad lines on stderr
 * with their numbers.
 *
 *	ck-decode [--labels FILE --board "VENDOR/PRODUCT"] [LOG ...]	(no LOG: stdin)
 *
 * Exit status: 0 every record read, 1 some line could not be read, 2 usage or a file (the
 * labels file refused: its line and what is wrong are printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/decode/records.h"
#include "mce/dimm_labels.h"

#define EXIT_BAD_LINES	1
#define EXIT_USAGE	2

struct where {
	const char *file;
};

static void out_line(void *ctx, const char *json)
{
	(void)ctx;
	printf("%s\n", json);
}

static void bad_line(void *ctx, unsigned int line, const char *why)
{
	const struct where *w = ctx;

	fprintf(stderr, "ck-decode: %s:%u: %s\n", w->file, line, why);
}

static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	*len = n;
	return buf;
}

static int usage(void)
{
	fprintf(stderr, "usage: ck-decode [--labels FILE --board \"VENDOR/PRODUCT\"] [LOG ...]\n"
		"  decodes machine-check bank records (the image's lines, Linux's mce lines) into\n"
		"  one JSON object per record: node, umc, cs, dimm, rank, label, reason\n");
	return EXIT_USAGE;
}

static int load_labels(struct dimm_labels *db, const char *file, const char *board)
{
	char vendor[256], *slash;
	const char *product;
	FILE *f = fopen(file, "r");
	size_t len;
	char *text;

	if (!board || !(slash = strchr(board, '/')) || (size_t)(slash - board) >= sizeof(vendor)) {
		fprintf(stderr, "ck-decode: --labels needs --board \"VENDOR/PRODUCT\" (the "
			"SMBIOS baseboard's manufacturer and product)\n");
		return -1;
	}
	memcpy(vendor, board, (size_t)(slash - board));
	vendor[slash - board] = '\0';
	product = slash + 1;
	if (!f || !(text = slurp(f, &len))) {
		fprintf(stderr, "ck-decode: cannot read %s\n", file);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	if (dimm_labels_parse(db, text, len, vendor, product)) {
		fprintf(stderr, "ck-decode: %s:%u: %s; the labels file is ignored\n", file,
			db->bad_line, db->error);
		free(text);
		return -1;
	}
	if (!db->board_found)
		fprintf(stderr, "ck-decode: %s names no board \"%s\" of vendor \"%s\": no labels\n",
			file, product, vendor);
	free(text);
	return 0;
}

static int decode(FILE *f, const char *name, const struct dimm_labels *db)
{
	struct where w = { .file = name };
	struct rec_reader r = { .labels = db, .out = out_line, .bad = bad_line, .ctx = &w };
	size_t len;
	char *text = slurp(f, &len);

	if (!text) {
		fprintf(stderr, "ck-decode: cannot read %s\n", name);
		return -1;
	}
	rec_read(&r, text, len);
	free(text);
	return (int)r.bad_lines;
}

int main(int argc, char **argv)
{
	static struct dimm_labels db;
	const char *labels = NULL, *board = NULL;
	int i, bad = 0, nfiles = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--labels") && i + 1 < argc)
			labels = argv[++i];
		else if (!strcmp(argv[i], "--board") && i + 1 < argc)
			board = argv[++i];
		else
			return usage();
	}
	if (board && !labels)
		return usage();
	if (labels && load_labels(&db, labels, board))
		return EXIT_USAGE;
	for (; i < argc; i++, nfiles++) {
		FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
		int r;

		if (!f) {
			fprintf(stderr, "ck-decode: cannot open %s\n", argv[i]);
			return EXIT_USAGE;
		}
		r = decode(f, argv[i], labels ? &db : NULL);
		if (f != stdin)
			fclose(f);
		if (r < 0)
			return EXIT_USAGE;
		bad += r;
	}
	if (!nfiles) {
		int r = decode(stdin, "<stdin>", labels ? &db : NULL);

		if (r < 0)
			return EXIT_USAGE;
		bad += r;
	}
	return bad ? EXIT_BAD_LINES : 0;
}
