/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_check.h - an independent reader of JSON text for the writer's host test and fuzzer:
 * RFC 8259's grammar (section 2-7) as a recursive-descent validator, and a string decoder
 * that turns escapes back into UTF-8. Written from the RFC, sharing nothing with
 * kernel/lib/json.c: code points are decoded and range-checked, not table-matched.
 *
 *	jc_valid(text)			the whole text is one JSON value, nothing after it
 *	jc_string(&p, out, size)	decode the string at *p (must start with '"')
 *	jc_utf8_fixed(in, n, out)	the input with every byte that is not part of a
 *					well-formed UTF-8 sequence replaced by U+FFFD
 */
#ifndef CK_TESTS_HOST_JSON_CHECK_H
#define CK_TESTS_HOST_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define JC_MAX_DEPTH	64

static inline bool jc_value(const char **p, int depth);

static inline void jc_ws(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
		(*p)++;
}

/* The code point of the UTF-8 sequence at @s (@n bytes left), its length in *@len; -1: bad. */
static inline long jc_utf8(const unsigned char *s, size_t n, size_t *len)
{
	static const long min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
	long cp;
	size_t k;

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		k = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		k = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		k = 4;
		cp = s[0] & 0x07;
	} else {
		return -1;
	}
	if (n < k)
		return -1;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min_cp[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = k;
	return cp;
}

static inline size_t jc_put_utf8(char *out, long cp)
{
	unsigned char *o = (unsigned char *)out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* @in with each byte outside a well-formed sequence turned into U+FFFD; returns the length. */
static inline size_t jc_utf8_fixed(const char *in, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		size_t len;
		long cp = jc_utf8((const unsigned char *)in + i, n - i, &len);

		if (cp < 0) {
			o += jc_put_utf8(out + o, 0xfffd);
			i++;
		} else {
			memcpy(out + o, in + i, len);
			o += len;
			i += len;
		}
	}
	return o;
}

static inline int jc_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode the string at *@p into @out (UTF-8, NUL-terminated, at most @size - 1 bytes);
 * returns its length, or -1 when it is not a valid JSON string (a raw control character,
 * a bad escape, a lone surrogate, bytes that are not UTF-8, no closing quote).
 */
static inline long jc_string(const char **p, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)*p;
	size_t o = 0;

	if (*s++ != '"')
		return -1;
	for (;;) {
		long cp;
		size_t len = 1;

		if (*s == '"')
			break;
		if (*s < 0x20)
			return -1;		/* includes the NUL at the end of the text */
		if (*s == '\\') {
			static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
			const char *e = s[1] ? strchr(esc, s[1]) : NULL;

			if (e && (e - esc) % 2 == 0) {
				cp = (unsigned char)e[1];
				len = 2;
			} else if (s[1] == 'u') {
				cp = 0;
				for (int i = 2; i < 6; i++) {
					int h = jc_hex((char)s[i]);

					if (h < 0)
						return -1;
					cp = cp << 4 | h;
				}
				len = 6;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return -1;
				if (cp >= 0xd800 && cp <= 0xdbff) {
					long lo = 0;

					if (s[6] != '\\' || s[7] != 'u')
						return -1;
					for (int i = 8; i < 12; i++) {
						int h = jc_hex((char)s[i]);

						if (h < 0)
							return -1;
						lo = lo << 4 | h;
					}
					if (lo < 0xdc00 || lo > 0xdfff)
						return -1;
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					len = 12;
				}
			} else {
				return -1;
			}
		} else {
			cp = jc_utf8(s, strlen((const char *)s), &len);
			if (cp < 0)
				return -1;
		}
		if (o + 4 >= size)
			return -1;
		o += jc_put_utf8(out + o, cp);
		s += len;
	}
	out[o] = '\0';
	*p = (const char *)s + 1;
	return (long)o;
}

static inline bool jc_number(const char **p)
{
	const char *s = *p;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	*p = s;
	return true;
}

static inline bool jc_members(const char **p, int depth, char close, bool keyed)
{
	static char scratch[1 << 16];

	(*p)++;
	jc_ws(p);
	if (**p == close) {
		(*p)++;
		return true;
	}
	for (;;) {
		jc_ws(p);
		if (keyed) {
			if (jc_string(p, scratch, sizeof(scratch)) < 0)
				return false;
			jc_ws(p);
			if (*(*p)++ != ':')
				return false;
		}
		if (!jc_value(p, depth + 1))
			return false;
		jc_ws(p);
		if (**p == close) {
			(*p)++;
			return true;
		}
		if (*(*p)++ != ',')
			return false;
	}
}

static inline bool jc_value(const char **p, int depth)
{
	static char scratch[1 << 16];

	if (depth > JC_MAX_DEPTH)
		return false;
	jc_ws(p);
	switch (**p) {
	case '{':
		return jc_members(p, depth, '}', true);
	case '[':
		return jc_members(p, depth, ']', false);
	case '"':
		return jc_string(p, scratch, sizeof(scratch)) >= 0;
	case 't':
		return !strncmp(*p, "true", 4) && (*p += 4);
	case 'f':
		return !strncmp(*p, "false", 5) && (*p += 5);
	case 'n':
		return !strncmp(*p, "null", 4) && (*p += 4);
	default:
		return jc_number(p);
	}
}

/* The whole of @text is one JSON value (whitespace around it allowed). */
static inline bool jc_valid(const char *text)
{
	const char *p = text;

	if (!jc_value(&p, 0))
		return false;
	jc_ws(&p);
	return *p == '\0';
}

#endif
