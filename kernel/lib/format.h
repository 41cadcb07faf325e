/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * format.h - freestanding printf-style formatting (plain C, also built and tested on the host).
 *
 * Supported: flags "-+ #0", width and precision (numbers or '*'), length modifiers hh h l ll z
 * t j, conversions d i u x X o c s p %. Output is always NUL-terminated when size > 0; the
 * return value is the length the full output would have had, as C's snprintf.
 */
#ifndef CK_FORMAT_H
#define CK_FORMAT_H

#include <stdarg.h>
#include "kernel/include/types.h"

int ck_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ck_snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * Append to @buf, whose text is *@len characters long, without ever writing past @size:
 * *@len grows by the whole length of the output, so *@len >= @size says it was cut.
 */
void ck_appendf(char *buf, size_t size, size_t *len, const char *fmt, ...) __printf(4, 5);

/*
 * One component of a result id ("suite.case.param", docs/user/results.md): @name in
 * lower case, every run of characters other than [a-z0-9_-] turned into one '_', no '_' at
 * either end ("" becomes "_"). Always NUL-terminated when size > 0; returns the length written.
 */
size_t ck_slug(char *buf, size_t size, const char *name);

#endif
