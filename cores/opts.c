// SPDX-License-Identifier: GPL-2.0-only
/*
 * opts.c - cores= parsed and written back (cores/opts.h). Plain C, host-tested and fuzzed
 * with the command-line parser.
 */
#include "cores/opts.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

static const char *const family_names[] = { "copy", "integer", "vector", "x87", "clear" };

static bool is(const char *p, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(p, word, n);
}

static bool starts(const char *p, size_t n, const char *word, size_t *skip)
{
	*skip = strlen(word);
	return n >= *skip && !memcmp(p, word, *skip);
}

/* A decimal or 0x-hex number of up to 64 bits. */
static bool number(const char *p, size_t n, u64 *out)
{
	bool hex = n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	u64 v = 0;

	if (!n || (hex && n > 18))
		return false;
	for (size_t i = hex ? 2 : 0; i < n; i++) {
		char c = p[i];
		u64 d;

		if (c >= '0' && c <= '9')
			d = (u64)(c - '0');
		else if (hex && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
			d = (u64)((c | 0x20) - 'a' + 10);
		else
			return false;
		if (!hex && v > (~0ULL - d) / 10)
			return false;
		v = hex ? v << 4 | d : v * 10 + d;
	}
	*out = v;
	return true;
}

static const char *families(const char *p, size_t n, u8 *mask)
{
	*mask = 0;
	while (n) {
		size_t len = 0;
		bool found = false;

		while (len < n && p[len] != '+')
			len++;
		for (size_t f = 0; f < ARRAY_SIZE(family_names); f++)
			if (is(p, len, family_names[f])) {
				*mask |= (u8)(1u << f);
				found = true;
			}
		if (!found)
			return "kernels: takes copy, clear, integer, vector and x87, joined by +";
		if (len < n && len + 1 == n)
			return "kernels: takes copy, clear, integer, vector and x87, joined by +";
		p += len + (len < n);
		n -= len + (len < n);
	}
	return *mask ? NULL : "kernels: takes copy, clear, integer, vector and x87, joined by +";
}

#define TIME_WORDS	"time: wants seconds, or one number and a unit (90s, 10m, 2h), 1s to 168h"

/* time:T: a number of seconds, or one number and one unit (s, m, h); 1 s to a week. */
static const char *duration(const char *p, size_t n, u32 *seconds)
{
	u64 v, unit = 1;
	size_t d = 0;

	while (d < n && p[d] >= '0' && p[d] <= '9')
		d++;
	if (!d || d > 9 || d + 1 < n)
		return TIME_WORDS;
	if (d < n) {
		if (p[d] == 'm')
			unit = 60;
		else if (p[d] == 'h')
			unit = 3600;
		else if (p[d] != 's')
			return TIME_WORDS;
	}
	if (!number(p, d, &v) || !v || v * unit > CORES_MAX_SECONDS)
		return TIME_WORDS;
	*seconds = (u32)(v * unit);
	return NULL;
}

static const char *item(const char *p, size_t n, struct cores_opts *o)
{
	size_t skip;
	u64 v;

	if (starts(p, n, "seed:", &skip)) {
		if (!number(p + skip, n - skip, &v))
			return "seed: wants a 64-bit number, decimal or 0x hex";
		o->seed = v;
		o->seed_set = true;
		return NULL;
	}
	if (starts(p, n, "rounds:", &skip)) {
		if (!number(p + skip, n - skip, &v) || !v || v > CORES_MAX_ROUNDS)
			return "rounds: wants a number from 1 to 1000";
		o->rounds = (u16)v;
		return NULL;
	}
	if (starts(p, n, "kernels:", &skip))
		return families(p + skip, n - skip, &o->families);
	if (starts(p, n, "time:", &skip))
		return duration(p + skip, n - skip, &o->seconds);
	return "not default, or seed:N, rounds:N, kernels:F+F and time:T joined by commas";
}

const char *cores_parse_opts(const char *p, size_t n, struct cores_opts *out)
{
	struct cores_opts o = { 0 };

	if (is(p, n, "default")) {
		*out = o;
		return NULL;
	}
	if (!n)
		return "empty";
	while (n) {
		size_t len = 0;
		const char *why;

		while (len < n && p[len] != ',')
			len++;
		if (!len || (len < n && len + 1 == n))
			return "an empty item between commas";
		why = item(p, len, &o);
		if (why)
			return why;
		p += len + (len < n);
		n -= len + (len < n);
	}
	if (o.families == (1u << ARRAY_SIZE(family_names)) - 1)
		o.families = 0;		/* every family: the default, said as such */
	*out = o;
	return NULL;
}

size_t cores_opts_text(const struct cores_opts *o, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	if (o->seed_set)
		ck_appendf(buf, size, &len, "seed:0x%llx", (unsigned long long)o->seed);
	if (o->rounds)
		ck_appendf(buf, size, &len, "%srounds:%u", len ? "," : "", o->rounds);
	if (o->families) {
		ck_appendf(buf, size, &len, "%skernels:", len ? "," : "");
		for (size_t f = 0, k = 0; f < ARRAY_SIZE(family_names); f++)
			if (o->families & (1u << f))
				ck_appendf(buf, size, &len, "%s%s", k++ ? "+" : "", family_names[f]);
	}
	if (o->seconds) {
		unsigned int s = o->seconds;

		ck_appendf(buf, size, &len, "%stime:", len ? "," : "");
		if (!(s % 3600))
			ck_appendf(buf, size, &len, "%uh", s / 3600);
		else if (!(s % 60))
			ck_appendf(buf, size, &len, "%um", s / 60);
		else
			ck_appendf(buf, size, &len, "%us", s);
	}
	if (!len)
		ck_appendf(buf, size, &len, "default");
	return len;
}

u64 cores_opts_seed(const struct cores_opts *o)
{
	return o->seed_set ? o->seed : CORES_DEFAULT_SEED;
}

unsigned int cores_opts_rounds(const struct cores_opts *o)
{
	return o->rounds ? o->rounds : 1;
}

bool cores_opts_family(const struct cores_opts *o, const char *family)
{
	if (!o->families)
		return true;
	for (size_t f = 0; f < ARRAY_SIZE(family_names); f++)
		if (!strcmp(family, family_names[f]))
			return o->families & (1u << f);
	return false;
}

u64 cores_pass_seed(u64 base, unsigned int pass)
{
	u64 z;

	if (pass <= 1)
		return base;
	z = base + (u64)pass * 0x9e3779b97f4a7c15ULL;		/* splitmix64's step and mix */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
