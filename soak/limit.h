/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * limit.h - how long a soak runs: the value of the command line's soak= key, parsed as a
 * pure function (the option table wires it in). Accepted:
 *   off          no soak (the default)
 *   30s 10m 2h   a duration: one decimal number and one unit (s, m, h), 1 s to one week
 *   passes:N     N whole passes over the memory, 1..SOAK_MAX_PASSES
 * Anything else is refused with a reason that says what is accepted.
 */
#ifndef CK_SOAK_LIMIT_H
#define CK_SOAK_LIMIT_H

#include "kernel/include/types.h"

#define SOAK_MAX_SECONDS	(7ULL * 24 * 3600)
#define SOAK_MAX_PASSES		100000

enum soak_limit_kind { SOAK_LIMIT_OFF, SOAK_LIMIT_TIME, SOAK_LIMIT_PASSES };

struct soak_limit {
	enum soak_limit_kind kind;
	u64 seconds;		/* SOAK_LIMIT_TIME */
	u32 passes;		/* SOAK_LIMIT_PASSES */
};

/* Parse @n bytes at @p. NULL on success (@out set), else the reason (@out untouched). */
const char *soak_parse_limit(const char *p, size_t n, struct soak_limit *out);
/*
 * The value as the command line would give it, in the largest unit that states it exactly
 * ("2h", "90m", "45s", "passes:3", "off"); returns its length (as snprintf).
 */
size_t soak_limit_text(const struct soak_limit *l, char *buf, size_t size);

#endif
