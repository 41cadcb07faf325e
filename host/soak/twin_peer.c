// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_peer.c - the twin's and stressapptest's counting as data rates, their summaries
 * parsed, and the interleaved rounds' ratio (host/soak/twin_peer.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/soak/twin_peer.h"

#define MIB	1048576.0

const char *const soak_rate_names[NR_SOAK_RATES] = { "checked", "copied", "traffic" };

void soak_twin_count_add(struct soak_twin_count *c, u64 checked, u64 written, u64 copied)
{
	c->elements++;
	c->written += written + copied;	/* the kernel's and the clear's stores, the copy's */
	c->read += checked + copied;	/* the kernel's loads, the copy's */
	c->copied += copied;
	c->checked += checked;
}

double soak_twin_rate(const struct soak_twin_count *t, unsigned int n, enum soak_rate r)
{
	double sum = 0;

	for (unsigned int i = 0; i < n; i++) {
		u64 bytes = r == SOAK_RATE_COPIED ? t[i].copied :
			    r == SOAK_RATE_CHECKED ? t[i].checked : t[i].written + t[i].read;

		if (t[i].ns)
			sum += (double)bytes * 1e9 / (double)t[i].ns;
	}
	return sum;
}

void sat_summary_init(struct sat_summary *s)
{
	memset(s, 0, sizeof(*s));
}

/* The text after @prefix when @line starts with it, else NULL. */
static const char *after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(line, prefix, n) ? NULL : line + n;
}

/* "Log: Using memaligned allocation at 0x..." -> "memaligned allocation". */
static void take_memory(struct sat_summary *s, const char *p)
{
	const char *at = strstr(p, " at ");
	size_t n = at ? (size_t)(at - p) : strcspn(p, ".\r\n");

	if (n >= sizeof(s->memory))
		n = sizeof(s->memory) - 1;
	memcpy(s->memory, p, n);
	s->memory[n] = 0;
}

void sat_parse_line(struct sat_summary *s, const char *line)
{
	const char *p;
	double a, b, c;
	unsigned long long h, e;

	if ((p = after(line, "Stats: Memory Copy: ")) &&
	    sscanf(p, "%lfM at %lfMB/s", &a, &b) == 2) {
		s->have_copy = true;
		s->copy_mib = a;
		s->copy_mibps = b;
	} else if ((p = after(line, "Stats: Completed: ")) &&
		   sscanf(p, "%lfM in %lfs %lfMB/s, with %llu hardware incidents, %llu errors",
			  &a, &b, &c, &h, &e) == 5) {
		s->have_completed = true;
		s->total_mib = a;
		s->seconds = b;
		s->total_mibps = c;
		s->incidents = h;
		s->errors = e;
	} else if ((p = after(line, "Status: "))) {
		s->have_status = true;
		s->pass = !strncmp(p, "PASS", 4);
	} else if ((p = after(line, "Stats: SAT revision "))) {
		size_t n = strcspn(p, ", \r\n");

		snprintf(s->revision, sizeof(s->revision), "%.*s", (int)n, p);
	} else if ((p = after(line, "Log: Using "))) {
		take_memory(s, p);
	} else if (after(line, "Hardware Error: miscompare")) {
		s->miscompare_lines++;
	}
}

const char *sat_summary_unusable(const struct sat_summary *s)
{
	if (!s->have_copy)
		return "no \"Stats: Memory Copy:\" line";
	if (!s->have_status)
		return "no \"Status:\" line (it did not finish)";
	if (!(s->copy_mibps > 0))
		return "a Memory Copy rate of zero";
	return NULL;
}

double sat_rate(const struct sat_summary *s, enum soak_rate r)
{
	double traffic = s->copy_mibps * MIB;	/* each copied byte counted twice */

	return r == SOAK_RATE_TRAFFIC ? traffic : traffic / 2;
}

/* The value of " key=" in @line as a number; false when absent. */
static bool key_value(const char *line, const char *key, double *v)
{
	char pat[40];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	*v = strtod(p + strlen(pat), &end);
	return end != p + strlen(pat);
}

size_t twin_format_result(char *buf, size_t size, const struct twin_result *r)
{
	int n = snprintf(buf, size, "%s threads=%llu elapsed_ns=%llu checked_bps=%.0f "
			 "copied_bps=%.0f traffic_bps=%.0f miscompares=%llu poisoned=%llu "
			 "result=%s", SOAK_TWIN_RESULT, (unsigned long long)r->threads,
			 (unsigned long long)r->elapsed_ns, r->rate[SOAK_RATE_CHECKED],
			 r->rate[SOAK_RATE_COPIED], r->rate[SOAK_RATE_TRAFFIC],
			 (unsigned long long)r->miscompares, (unsigned long long)r->poisoned,
			 r->pass ? "PASS" : "FAIL");

	return n < 0 ? 0 : (size_t)n;
}

bool twin_parse_result(const char *line, struct twin_result *r)
{
	static const char *const rate_keys[NR_SOAK_RATES] = {
		"checked_bps", "copied_bps", "traffic_bps",
	};
	double v;

	memset(r, 0, sizeof(*r));
	if (strncmp(line, SOAK_TWIN_RESULT, strlen(SOAK_TWIN_RESULT)))
		return false;
	for (int k = 0; k < NR_SOAK_RATES; k++) {
		if (!key_value(line, rate_keys[k], &v))
			return false;
		r->rate[k] = v;
	}
	if (key_value(line, "threads", &v))
		r->threads = (u64)v;
	if (key_value(line, "elapsed_ns", &v))
		r->elapsed_ns = (u64)v;
	if (key_value(line, "miscompares", &v))
		r->miscompares = (u64)v;
	if (key_value(line, "poisoned", &v))
		r->poisoned = (u64)v;
	r->pass = strstr(line, " result=PASS") != NULL;
	return true;
}

bool soak_rate_ratio(const double *rate_a, const double *rate_b, unsigned int n,
		     struct ratio *q, unsigned int *used)
{
	u64 a[STATS_MAX], b[STATS_MAX];
	unsigned int m = 0;

	for (unsigned int i = 0; i < n && m < STATS_MAX; i++) {
		if (!(rate_a[i] > 0) || !(rate_b[i] > 0))
			continue;
		/* bytes per second as integers: the ratio of two rounds' rates, a / b */
		a[m] = (u64)(rate_a[i] + 0.5);
		b[m] = (u64)(rate_b[i] + 0.5);
		if (a[m] && b[m])
			m++;
	}
	*used = m;
	memset(q, 0, sizeof(*q));
	return stats_round_ratio(a, b, m, STATS_BOOT_MAX, STATS_SEED, q);
}
