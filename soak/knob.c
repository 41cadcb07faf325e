// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob.c - the soak_fault= value (knob.h).
 */
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/knob.h"

static bool is(const char *p, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(p, word, n);
}

const char *soak_parse_fault(const char *p, size_t n, struct soak_fault_opt *out)
{
	u32 cpu = 0;

	if (is(p, n, "none") || is(p, n, "flip") || is(p, n, "emulate") || is(p, n, "mce")) {
		*out = (struct soak_fault_opt){ is(p, n, "none") ? SOAK_KNOB_NONE :
						is(p, n, "flip") ? SOAK_KNOB_FLIP :
						is(p, n, "mce") ? SOAK_KNOB_MCE :
						SOAK_KNOB_EMULATE, 0 };
		return NULL;
	}
	if (n < 6 || memcmp(p, "stuck:", 6))
		return "not none, flip, stuck:N, emulate or mce";
	if (n == 6 || n > 10)
		return "stuck:N wants a CPU number from 1 to 1023";
	for (size_t i = 6; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return "stuck:N wants a CPU number from 1 to 1023";
		cpu = cpu * 10 + (u32)(p[i] - '0');
	}
	if (!cpu)
		return "stuck:0 would stop the monitor (CPU 0): name an application processor";
	if (cpu > SOAK_KNOB_MAX_CPU)
		return "stuck:N wants a CPU number from 1 to 1023";
	*out = (struct soak_fault_opt){ SOAK_KNOB_STUCK, (u16)cpu };
	return NULL;
}

size_t soak_fault_text(const struct soak_fault_opt *f, char *buf, size_t size)
{
	static const char *const names[] = { "none", "flip", "stuck", "emulate", "mce" };
	int n;

	if (f->kind == SOAK_KNOB_STUCK)
		n = ck_snprintf(buf, size, "stuck:%u", f->cpu);
	else
		n = ck_snprintf(buf, size, "%s", f->kind < ARRAY_SIZE(names) ? names[f->kind] : "?");
	return n > 0 ? (size_t)n : 0;
}
