/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * string.h - kernel string functions; on the host build the C library provides them.
 */
#ifndef CK_STRING_H
#define CK_STRING_H

#ifdef CK_HOST
#include <string.h>
#else
#include "kernel/include/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
#endif

#endif
