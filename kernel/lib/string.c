// SPDX-License-Identifier: GPL-2.0-only
/*
 * string.c - the few C library string functions the compiler and the kernel need.
 * Simple byte loops: nothing measured goes through here (copy/ holds the measured routines).
 * memcpy and memset are not defined here: gnu-efi's libefi, linked into the image for boot/,
 * already provides them for the compiler's implicit calls, and a second definition would
 * clash at link time.
 */
#include "kernel/lib/string.h"

void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d < s) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i] || !a[i])
			return (u8)a[i] - (u8)b[i];
	}
	return 0;
}
