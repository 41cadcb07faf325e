// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline.c - parse the command line into struct ck_config, as the option table
 * (cmdline_opts.c) describes each key.
 *
 * A value either sets its field or gives a short reason; the caller adds the valid choices and
 * what is used instead: the row's default, or for tests= (a row with .on_bad) only the suites
 * it names that exist. Unknown keys, words without '=', over-long words and bad values are
 * errors; a key given twice, and a suite named twice in tests=, are notes (the last key
 * counts; the suite runs once). Each error also goes out in brief: the word and what was
 * taken instead.
 */
#include "init/cmdline.h"
#include "init/cmdline_opts.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

struct span {
	const char *p;
	size_t n;
};

/* One parse: where its messages go and how many errors it found. */
struct parse {
	struct ck_config *cfg;
	cmdline_report_fn fn;
	void *ctx;
	int errors;
	u32 known;		/* tests= refused: the suites it names that exist */
};

static void vsay(struct parse *ps, const char *brief, const char *fmt, va_list ap)
{
	struct cmdline_msg m = { .error = brief != NULL, .brief = brief };
	char msg[512];

	ps->errors += m.error;
	if (!ps->fn)
		return;
	ck_vsnprintf(msg, sizeof(msg), fmt, ap);
	m.text = msg;
	ps->fn(ps->ctx, &m);
}

/* A note: said, not counted. */
static void note(struct parse *ps, const char *fmt, ...) __printf(2, 3);
static void note(struct parse *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(ps, NULL, fmt, ap);
	va_end(ap);
}

/* An error: counted, said in full (@fmt) and in @brief. */
static void complain(struct parse *ps, const char *brief, const char *fmt, ...) __printf(3, 4);
static void complain(struct parse *ps, const char *brief, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(ps, brief, fmt, ap);
	va_end(ap);
}

static int shown_len(size_t n)
{
	return n > 64 ? 64 : (int)n;
}

static bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

static int choice_index(struct span v, const char *const *names, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		if (span_eq(v, names[i]))
			return (int)i;
	return -1;
}

/* Decimal or 0x-hex number of at most 8 digits; false on anything else. */
static bool parse_u32(struct span v, u32 *out)
{
	unsigned int base = 10;
	u64 val = 0;
	size_t i = 0;

	if (v.n > 2 && v.p[0] == '0' && (v.p[1] == 'x' || v.p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == v.n || v.n - i > 10)
		return false;
	for (; i < v.n; i++) {
		char c = v.p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return false;
		val = val * base + d;
		if (val > 0xffffffffULL)
			return false;
	}
	*out = (u32)val;
	return true;
}

static u32 field_get(const struct ck_config *cfg, const struct cmdline_opt *o)
{
	const u8 *p = (const u8 *)cfg + o->field;

	if (o->kind == OPT_PARSED)	/* a struct of its own: is_set() and its @text read it */
		return 0;
	if (o->size == 1)
		return *p;
	if (o->size == 2)
		return *(const u16 *)p;
	return *(const u32 *)p;
}

static void field_set(struct ck_config *cfg, const struct cmdline_opt *o, u32 v)
{
	u8 *p = (u8 *)cfg + o->field;

	if (o->size == 1)
		*p = (u8)v;
	else if (o->size == 2)
		*(u16 *)p = (u16)v;
	else
		*(u32 *)p = v;
}

static u32 all_suites(const struct ck_config *cfg)
{
	unsigned int n = cfg->names->nr_suites;

	return n >= 32 ? ~0u : (1u << n) - 1;
}

/*
 * A suite named more than once runs once: say so, once per suite. A name that is no suite
 * refuses the value (@why says which); ps->known keeps the ones that are.
 */
static const char *parse_tests(struct parse *ps, struct span v, bool quiet, char *why,
			       size_t size)
{
	const struct cmdline_names *nm = ps->cfg->names;
	u32 mask = 0, noted = 0;
	unsigned int unknown = 0;
	size_t i = 0;

	if (span_eq(v, "all") || span_eq(v, "none")) {
		ps->cfg->tests = span_eq(v, "all") ? all_suites(ps->cfg) : 0;
		return NULL;
	}
	while (i <= v.n) {
		struct span item = { v.p + i, 0 };
		int idx;

		while (i + item.n < v.n && v.p[i + item.n] != ',')
			item.n++;
		i += item.n + 1;
		idx = choice_index(item, nm->suites, nm->nr_suites);
		if (idx < 0) {
			if (!unknown++)
				ck_snprintf(why, size, item.n ? "unknown suite '%.*s'" :
					    "an empty suite name", shown_len(item.n), item.p);
			continue;
		}
		if ((mask & (1u << idx)) && !(noted & (1u << idx)) && !quiet)
			note(ps, "cmdline: note: tests= names %s more than once; it runs once",
			     nm->suites[idx]);
		noted |= mask & (1u << idx);
		mask |= 1u << idx;
	}
	if (unknown > 1) {
		size_t len = strlen(why);

		ck_appendf(why, size, &len, " and %u more", unknown - 1);
	}
	ps->known = mask;
	if (unknown)
		return why;
	ps->cfg->tests = mask;
	return NULL;
}

static const char *parse_console(struct ck_config *cfg, struct span v)
{
	struct span dev = v, baud = { NULL, 0 };
	u32 port = 0, rate = SERIAL_BAUD_DEFAULT;
	size_t i;

	for (i = 0; i < v.n && v.p[i] != ','; i++)
		;
	dev.n = i;
	/* "uart,io,0x3f8[,baud]" names the port directly. */
	if (span_eq(dev, "uart")) {
		struct span rest = { v.p + i + 1, i < v.n ? v.n - i - 1 : 0 };
		size_t j;

		if (rest.n < 3 || memcmp(rest.p, "io,", 3))
			return "expected uart,io,<port>[,<baud>]";
		rest.p += 3;
		rest.n -= 3;
		for (j = 0; j < rest.n && rest.p[j] != ','; j++)
			;
		if (!parse_u32((struct span){ rest.p, j }, &port) || port == 0 ||
		    port > CMDLINE_UART_PORT_MAX)
			return "bad I/O port";
		if (j < rest.n)
			baud = (struct span){ rest.p + j + 1, rest.n - j - 1 };
	} else {
		if (dev.n != 5 || memcmp(dev.p, "ttyS", 4) || dev.p[4] < '0' || dev.p[4] > '3')
			return "unknown device";
		port = cmdline_com_ports[dev.p[4] - '0'];
		if (i < v.n)
			baud = (struct span){ v.p + i + 1, v.n - i - 1 };
	}
	if (baud.p) {
		bool ok = false;

		if (!parse_u32(baud, &rate))
			return "bad baud rate";
		for (i = 0; i < ARRAY_SIZE(cmdline_bauds); i++)
			ok |= cmdline_bauds[i] == rate;
		if (!ok)
			return "unsupported baud rate";
	}
	cfg->console_port = (u16)port;
	cfg->console_baud = rate;
	return NULL;
}

/* @why gets "not <noun> from <lo> to <hi>" when @v is out of the row's bounds. */
static const char *parse_number(struct ck_config *cfg, const struct cmdline_opt *o,
				struct span v, char *why, size_t size)
{
	u32 n;

	if (o->word && span_eq(v, o->word)) {
		field_set(cfg, o, 0);
		return NULL;
	}
	if (!parse_u32(v, &n) || n < o->lo || n > o->hi || (o->pow2 && (n & (n - 1)))) {
		ck_snprintf(why, size, "not %s%s%s from %u to %u", o->word ? o->word : "",
			    o->word ? " or " : "", o->noun, o->lo, o->hi);
		return why;
	}
	field_set(cfg, o, n + o->bias);
	return NULL;
}

/* Apply @v to @o's field; NULL on success, else the reason (nothing written then). */
static const char *apply(struct parse *ps, const struct cmdline_opt *o, struct span v,
			 bool quiet, char *why, size_t size)
{
	const char *const *names;
	unsigned int n;
	int i;

	switch (o->kind) {
	case OPT_SUITES:
		return parse_tests(ps, v, quiet, why, size);
	case OPT_CONSOLE:
		return parse_console(ps->cfg, v);
	case OPT_NUMBER:
		return parse_number(ps->cfg, o, v, why, size);
	case OPT_PARSED:
		return o->parse(v.p, v.n, (u8 *)ps->cfg + o->field);
	case OPT_IMPL:
		if (span_eq(v, "auto")) {
			field_set(ps->cfg, o, 0);
			return NULL;
		}
		break;
	default:
		break;
	}
	names = cmdline_opt_names(o, ps->cfg->names, &n);
	i = choice_index(v, names, n);
	if (i < 0)
		return "not one of the choices";
	field_set(ps->cfg, o, (u32)(o->kind == OPT_IMPL ? i + 1 : i));
	return NULL;
}

void cmdline_defaults(struct ck_config *cfg, const struct cmdline_names *names)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->names = names;
	cfg->tests = all_suites(cfg);
	cfg->console_port = cmdline_com_ports[0];
	cfg->console_baud = SERIAL_BAUD_DEFAULT;
}

/* "cpu,tsc" or "none": the suites of @mask, in run order. */
static void suites_text(const struct ck_config *cfg, u32 mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int s = 0; s < cfg->names->nr_suites && s < 32; s++)
		if (mask & (1u << s))
			ck_appendf(buf, size, &len, "%s%s", len ? "," : "", cfg->names->suites[s]);
	if (!len)
		ck_appendf(buf, size, &len, "none");
}

/*
 * A bad value: say what is valid, and apply the row's default instead; tests= (its .on_bad)
 * keeps the suites it names that exist.
 */
static void refuse(struct parse *ps, const struct cmdline_opt *o, struct span word,
		   struct span val, const char *why)
{
	char valid[320], scratch[80], ran[200], instead[256], brief[CMDLINE_BRIEF_MAX];

	cmdline_opt_values(o, ps->cfg->names, valid, sizeof(valid));
	if (o->kind == OPT_SUITES && o->on_bad) {
		ps->cfg->tests = ps->known;
		suites_text(ps->cfg, ps->known, ran, sizeof(ran));
		ck_snprintf(instead, sizeof(instead), "running %s: %s", o->on_bad, ran);
	} else {
		apply(ps, o, (struct span){ o->def, strlen(o->def) }, true, scratch,
		      sizeof(scratch));
		ck_snprintf(instead, sizeof(instead), "using the default '%s'", o->def);
	}
	ck_snprintf(brief, sizeof(brief), "'%.*s': bad value (%s); %s", shown_len(word.n), word.p,
		    why, instead);
	complain(ps, brief, "cmdline: bad value '%.*s' for %s= (%s; valid: %s); %s",
		 shown_len(val.n), val.p, o->key, why, valid, instead);
}

/* One key=value word; @seen counts the keys given so far (2: more than once). */
static void parse_word(struct parse *ps, struct span word, const char *keys, u8 *seen)
{
	const struct cmdline_opt *o, *all;
	struct span key, val;
	char why[CMDLINE_BRIEF_MAX];
	const char *no;
	unsigned int nr;
	size_t eq;

	for (eq = 0; eq < word.n && word.p[eq] != '='; eq++)
		;
	if (eq == word.n || eq == 0) {
		ck_snprintf(why, sizeof(why), "'%.*s': not key=value; ignored", shown_len(word.n),
			    word.p);
		complain(ps, why, "cmdline: '%.*s' is not key=value (valid keys: %s); ignored",
			 shown_len(word.n), word.p, keys);
		return;
	}
	key = (struct span){ word.p, eq };
	val = (struct span){ word.p + eq + 1, word.n - eq - 1 };
	o = cmdline_opt_find(key.p, key.n);
	if (!o) {
		ck_snprintf(why, sizeof(why), "'%.*s': unknown key; ignored", shown_len(word.n),
			    word.p);
		complain(ps, why, "cmdline: unknown key '%.*s' (valid keys: %s); ignored",
			 shown_len(key.n), key.p, keys);
		return;
	}
	all = cmdline_opts(&nr);
	if (seen[o - all] == 1)		/* said once per key */
		note(ps, "cmdline: note: %s= given more than once; the last one counts", o->key);
	if (seen[o - all] < 2)
		seen[o - all]++;
	no = apply(ps, o, val, false, why, sizeof(why));
	if (no)
		refuse(ps, o, word, val, no);
}

int cmdline_parse(const char *line, struct ck_config *cfg, cmdline_report_fn fn, void *ctx)
{
	struct parse ps = { .cfg = cfg, .fn = fn, .ctx = ctx };
	const struct cmdline_opt *o;
	unsigned int nr;
	u8 seen[CMDLINE_OPTS_MAX] = { 0 };
	char keys[400];
	size_t i = 0;

	o = cmdline_opts(&nr);
	keys[0] = '\0';
	for (size_t k = 0, len = 0; k < nr && len < sizeof(keys); k++)
		len += (size_t)ck_snprintf(keys + len, sizeof(keys) - len, "%s%s", k ? ", " : "",
					   o[k].key);
	while (line && line[i]) {
		struct span word;

		while (line[i] == ' ' || line[i] == '\t')
			i++;
		if (!line[i])
			break;
		word.p = line + i;
		for (word.n = 0; line[i] && line[i] != ' ' && line[i] != '\t'; i++)
			word.n++;
		if (word.n > CMDLINE_MAX_WORD) {
			char brief[CMDLINE_BRIEF_MAX];

			ck_snprintf(brief, sizeof(brief), "'%.32s...': longer than %d characters; "
				    "ignored", word.p, CMDLINE_MAX_WORD);
			complain(&ps, brief, "cmdline: word '%.*s...' is longer than %d "
				 "characters; ignored", 32, word.p, CMDLINE_MAX_WORD);
			continue;
		}
		parse_word(&ps, word, keys, seen);
	}
	return ps.errors;
}

static const char *name_or_unknown(const char *const *names, unsigned int n, u32 i)
{
	return i < n ? names[i] : "?";
}

/* " key=value" of one row, as the command line would give it. */
static void describe_one(const struct ck_config *cfg, const struct cmdline_opt *o, char *buf,
			 size_t size, size_t *len)
{
	const struct cmdline_names *nm = cfg->names;
	const char *const *names;
	u32 v = field_get(cfg, o);
	unsigned int n, port;

	ck_appendf(buf, size, len, "%s%s=", *len ? " " : "", o->key);
	switch (o->kind) {
	case OPT_SUITES:
		if (v == all_suites(cfg) || !v) {
			ck_appendf(buf, size, len, "%s", v == all_suites(cfg) ? "all" : "none");
			break;
		}
		for (unsigned int s = 0, first = 1; s < nm->nr_suites && s < 32; s++)
			if (v & (1u << s)) {
				ck_appendf(buf, size, len, "%s%s", first ? "" : ",", nm->suites[s]);
				first = 0;
			}
		break;
	case OPT_CONSOLE:
		for (port = 0; port < ARRAY_SIZE(cmdline_com_ports); port++)
			if (cmdline_com_ports[port] == cfg->console_port)
				break;
		if (port < ARRAY_SIZE(cmdline_com_ports))
			ck_appendf(buf, size, len, "ttyS%u,%u", port, cfg->console_baud);
		else
			ck_appendf(buf, size, len, "uart,io,0x%x,%u", cfg->console_port,
				   cfg->console_baud);
		break;
	case OPT_NUMBER:
		ck_appendf(buf, size, len, "%u", v - o->bias);
		break;
	case OPT_PARSED:
		if (*len < size)
			*len += o->text((const u8 *)cfg + o->field, buf + *len, size - *len);
		break;
	default:
		names = cmdline_opt_names(o, nm, &n);
		ck_appendf(buf, size, len, "%s", o->kind == OPT_IMPL ?
			   name_or_unknown(names, n, v - 1) : name_or_unknown(names, n, v));
		break;
	}
}

/* Whether @o's field differs from its zeroed default (a parsed value: by its text). */
static bool is_set(const struct ck_config *cfg, const struct cmdline_opt *o)
{
	char now[96], zero[96];
	u8 blank[32] = { 0 };

	if (o->kind != OPT_PARSED)
		return field_get(cfg, o);
	if (o->size > sizeof(blank))
		return true;
	o->text((const u8 *)cfg + o->field, now, sizeof(now));
	o->text(blank, zero, sizeof(zero));
	return strcmp(now, zero) != 0;
}

void cmdline_describe(const struct ck_config *cfg, char *buf, size_t size)
{
	unsigned int nr;
	const struct cmdline_opt *o = cmdline_opts(&nr);
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < nr; i++)
		if (o[i].always || is_set(cfg, &o[i]))
			describe_one(cfg, &o[i], buf, size, &len);
}
