// SPDX-License-Identifier: GPL-2.0-only
/*
 * limit.c - the soak= value: off, a duration or passes:N (limit.h).
 */
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/limit.h"

/* Decimal digits at @p (@n of them, at most 9): false on anything else. */
static bool digits(const char *p, size_t n, u64 *v)
{
	*v = 0;
	if (!n || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*v = *v * 10 + (u64)(p[i] - '0');
	}
	return true;
}

static const char *parse_passes(const char *p, size_t n, struct soak_limit *out)
{
	u64 v;

	if (!digits(p, n, &v) || v < 1 || v > SOAK_MAX_PASSES)
		return "passes:N wants N from 1 to 100000";
	out->kind = SOAK_LIMIT_PASSES;
	out->passes = (u32)v;
	out->seconds = 0;
	return NULL;
}

const char *soak_parse_limit(const char *p, size_t n, struct soak_limit *out)
{
	size_t d = 0;
	u64 v, unit;

	if (n == 3 && !memcmp(p, "off", 3)) {
		*out = (struct soak_limit){ SOAK_LIMIT_OFF, 0, 0 };
		return NULL;
	}
	if (n >= 7 && !memcmp(p, "passes:", 7))
		return parse_passes(p + 7, n - 7, out);
	while (d < n && p[d] >= '0' && p[d] <= '9')
		d++;
	if (!d)
		return "not off, a duration (30s, 10m, 2h) or passes:N";
	if (d == n)
		return "a duration needs its unit: s, m or h (30s, 10m, 2h)";
	if (d + 1 < n)
		return "one number and one unit (say 90m, not 1h30m)";
	if (p[d] == 's')
		unit = 1;
	else if (p[d] == 'm')
		unit = 60;
	else if (p[d] == 'h')
		unit = 3600;
	else
		return "unknown unit: a duration is in s, m or h (30s, 10m, 2h)";
	if (!digits(p, d, &v) || v * unit > SOAK_MAX_SECONDS)
		return "longer than a week (168h)";
	if (!v)
		return "a soak of no time: at least 1s";
	*out = (struct soak_limit){ SOAK_LIMIT_TIME, v * unit, 0 };
	return NULL;
}

size_t soak_limit_text(const struct soak_limit *l, char *buf, size_t size)
{
	unsigned long long s = l->seconds;
	int n;

	if (l->kind == SOAK_LIMIT_PASSES)
		n = ck_snprintf(buf, size, "passes:%u", l->passes);
	else if (l->kind != SOAK_LIMIT_TIME)
		n = ck_snprintf(buf, size, "off");
	else if (s && !(s % 3600))
		n = ck_snprintf(buf, size, "%lluh", s / 3600);
	else if (s && !(s % 60))
		n = ck_snprintf(buf, size, "%llum", s / 60);
	else
		n = ck_snprintf(buf, size, "%llus", s);
	return n > 0 ? (size_t)n : 0;
}
