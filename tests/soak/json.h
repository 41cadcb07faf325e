/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - the soak's one small text writer: appends formatted text to a bounded buffer,
 * with the JSON string escaping its records need. Kept tiny and in one place: the shared
 * JSON-lines writer of issue 18 replaces it when it lands.
 */
#ifndef CK_SOAK_JSON_H
#define CK_SOAK_JSON_H

#include "kernel/include/types.h"

struct soak_out {
	char *buf;
	size_t size;
	size_t len;		/* what the whole text needs; more than size - 1 when cut */
};

void soak_out_init(struct soak_out *o, char *buf, size_t size);
void soak_out_printf(struct soak_out *o, const char *fmt, ...) __printf(2, 3);
/* @s as a JSON string: quoted, with ", \ and control characters escaped. */
void soak_out_json_str(struct soak_out *o, const char *s);
/* A 64-bit value as a JSON string "0x..." (JSON numbers lose bits past 2^53). */
void soak_out_json_hex(struct soak_out *o, u64 v);

#endif
