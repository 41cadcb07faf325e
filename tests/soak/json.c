// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - the soak's bounded text writer (json.h).
 */
#include <stdarg.h>

#include "kernel/lib/format.h"
#include "tests/soak/json.h"

void soak_out_init(struct soak_out *o, char *buf, size_t size)
{
	o->buf = buf;
	o->size = size;
	o->len = 0;
	if (size)
		buf[0] = '\0';
}

void soak_out_printf(struct soak_out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ck_vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

void soak_out_json_str(struct soak_out *o, const char *s)
{
	soak_out_printf(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			soak_out_printf(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			soak_out_printf(o, "\\u%04x", c);
		else
			soak_out_printf(o, "%c", c);
	}
	soak_out_printf(o, "\"");
}

void soak_out_json_hex(struct soak_out *o, u64 v)
{
	soak_out_printf(o, "\"0x%llx\"", (unsigned long long)v);
}
