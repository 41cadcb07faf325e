/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline_opts.h - the command line's option table: one declarative row per key (its field in
 * struct ck_config, what it takes, its default, its bounds and a one-line description).
 *
 * The parser (cmdline.c) reads nothing else about a key, and the same rows are what the
 * reference of the command line is generated from (host/ck-cmdline-doc.c writes
 * docs/reference/cmdline.md; `make cmdline-doc`): cmdline_opts() lists them,
 * cmdline_opt_values() and cmdline_opt_bounds() say in words what a row takes, and
 * cmdline_opt_undocumented() names what a row still lacks (make check fails on it).
 * Plain C, host-tested and fuzzed with the parser.
 */
#ifndef CK_INIT_CMDLINE_OPTS_H
#define CK_INIT_CMDLINE_OPTS_H

#include "init/config.h"

enum cmdline_kind {
	OPT_CHOICE,		/* one of @choices; the field holds its index */
	OPT_IMPL,		/* "auto" (field 0) or one of @choices (field 1 + its index) */
	OPT_NUMBER,		/* a number in [@lo, @hi]; the field holds it plus @bias */
	OPT_SUITES,		/* tests=: all, none or a comma-separated list of suites */
	OPT_CONSOLE,		/* console=: ttyS0..ttyS3[,baud] or uart,io,<port>[,baud] */
	OPT_PARSED,		/* a value its own pure parser reads (@parse) and writes (@text) */
};

/* Where a row's choices come from: its own list, or the names the run registered. */
enum cmdline_names_of { NAMES_FIXED, NAMES_SUITES, NAMES_CRASHES };

struct cmdline_opt {
	const char *key;
	enum cmdline_kind kind;
	size_t field, size;		/* offset and size of its member of struct ck_config */
	const char *const *choices;	/* OPT_CHOICE and OPT_IMPL with NAMES_FIXED */
	unsigned int nr_choices;
	enum cmdline_names_of names_of;
	/* OPT_NUMBER: bounds, what a number counts, and a word that stands for field 0. */
	u32 lo, hi, bias;
	const char *noun;		/* "a number of seconds": for messages and the reference */
	bool pow2;			/* only powers of two (the noun says so) */
	const char *word;		/* "all" (smp=all), or NULL */
	const char *def;		/* the default, as it would be written on the command line */
	/*
	 * OPT_SUITES: what a bad value runs instead of the default, in words ("running <on_bad>:
	 * cpu" in the message; the reference's default cell says it too). NULL: the default.
	 */
	const char *on_bad;
	bool always;			/* cmdline_describe() names it even at its default */
	const char *desc;		/* one line for the reference, CMDLINE_DESC_MAX at most */
	const char *see;		/* the docs/ page that holds the details */
	/* OPT_PARSED: NULL or the reason; the text as the command line gives it; in words. */
	const char *(*parse)(const char *p, size_t n, void *field);
	size_t (*text)(const void *field, char *buf, size_t size);
	const char *values;
	const char *bounds;		/* OPT_PARSED: its limits in words */
};

#define CMDLINE_OPTS_MAX	32	/* rows the table may have (the parser's bookkeeping) */
#define CMDLINE_DESC_MAX	90	/* characters of a row's @desc: a short reference cell */
#define CMDLINE_UART_PORT_MAX	0xfff8	/* the highest I/O port console=uart,io,<port> takes */

/* The rows, in the order cmdline_describe() writes them; *@n gets their number. */
const struct cmdline_opt *cmdline_opts(unsigned int *n);

/* The row of @key, or NULL. */
const struct cmdline_opt *cmdline_opt_find(const char *key, size_t len);

/* Baud rates console= accepts, and the I/O ports of ttyS0..ttyS3. */
extern const u32 cmdline_bauds[5];
extern const u16 cmdline_com_ports[4];

/*
 * The names a choice row accepts (its own or the registered suites and crash kinds of
 * @names); NULL and 0 for rows without a list of names.
 */
const char *const *cmdline_opt_names(const struct cmdline_opt *o,
				     const struct cmdline_names *names, unsigned int *n);

/*
 * What @o takes, in words, e.g. "auto or rep, unrolled" or "a number of seconds, 0..3600";
 * always NUL-terminated; returns the length the whole text would have.
 */
size_t cmdline_opt_values(const struct cmdline_opt *o, const struct cmdline_names *names,
			  char *buf, size_t size);

/*
 * With @names NULL, cmdline_opt_values() says what tests= and crash= take without naming the
 * image's registrations: these words stand where the names would be.
 */
#define CMDLINE_SUITES_WORDS	"the registered suites"
#define CMDLINE_CRASHES_WORDS	"the registered crash kinds, none first"

/*
 * The bounds of what @o takes, in words ("0..3600"), or "" for a row whose values are a
 * list; same contract as cmdline_opt_values().
 */
size_t cmdline_opt_bounds(const struct cmdline_opt *o, char *buf, size_t size);

/* NULL when @o is documented (description, default, values, bounds, page), else what is not. */
const char *cmdline_opt_undocumented(const struct cmdline_opt *o);

#endif
