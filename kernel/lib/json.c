// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - the JSON-lines writer (see json.h): members, string escaping, numbers, the
 * nesting rules and the error record. Plain C with no other module under it.
 */
#include "kernel/lib/json.h"

/* The first error stays, except that a misuse outranks an overflow (it is a bug to fix). */
static void fail(struct json_writer *w, int err)
{
	if (!w->err || err == -JSON_EINVAL)
		w->err = err;
}

/* Append @n bytes; past the end of the buffer only count them (and note the overflow). */
static void put(struct json_writer *w, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, w->len++) {
		if (w->len + 1 < w->size)
			w->buf[w->len] = s[i];
		else
			fail(w, -JSON_ENOSPC);
	}
}

static void putc_(struct json_writer *w, char c)
{
	put(w, &c, 1);
}

static void put_u64(struct json_writer *w, u64 v)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		putc_(w, d[--n]);
}

/* The length of the valid UTF-8 sequence at @s (at most @n bytes), 0 when there is none. */
static size_t utf8_len(const u8 *s, size_t n)
{
	u8 lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;		/* a continuation byte, an overlong lead, or > U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;		/* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f;		/* U+D800..U+DFFF: surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;		/* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f;		/* above U+10FFFF */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_u_escape(struct json_writer *w, unsigned int cp)
{
	static const char hex[] = "0123456789abcdef";
	char e[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
		      hex[cp & 15] };

	put(w, e, sizeof(e));
}

/* One ASCII character of a string, escaped where RFC 8259 asks (and DEL, a control too). */
static void put_ascii(struct json_writer *w, u8 c)
{
	static const char short_form[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n',
					   ['\r'] = 'r', ['\t'] = 't' };
	char e[2] = { '\\', (char)c };

	if (c == '"' || c == '\\') {
		put(w, e, 2);
	} else if (c < sizeof(short_form) && short_form[c]) {
		e[1] = short_form[c];
		put(w, e, 2);
	} else if (c < 0x20 || c == 0x7f) {
		put_u_escape(w, c);
	} else {
		putc_(w, (char)c);
	}
}

static void put_string(struct json_writer *w, const char *str)
{
	const u8 *s = (const u8 *)str;
	size_t n = 0;

	while (s[n])
		n++;
	putc_(w, '"');
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);

		if (len == 1)
			put_ascii(w, s[i]);
		else if (len == 2 && s[i] == 0xc2 && s[i + 1] <= 0x9f)
			put_u_escape(w, s[i + 1]);	/* U+0080..U+009F: C1 controls */
		else if (len)
			put(w, (const char *)s + i, len);
		else
			put_u_escape(w, 0xfffd);
		i += len ? len : 1;
	}
	putc_(w, '"');
}

/* The separator and the key before a member, after checking the member belongs here. */
static bool member(struct json_writer *w, const char *key)
{
	u32 bit;

	if (w->depth < 1) {
		fail(w, -JSON_EINVAL);
		return false;
	}
	bit = 1u << (w->depth - 1);
	if (!(w->array & bit) != !!key) {	/* a key in objects, none in arrays */
		fail(w, -JSON_EINVAL);
		return false;
	}
	if (w->member & bit)
		putc_(w, ',');
	w->member |= bit;
	if (key) {
		put_string(w, key);
		putc_(w, ':');
	}
	return true;
}

static void open_level(struct json_writer *w, const char *key, bool array)
{
	if (w->depth > JSON_MAX_DEPTH) {
		fail(w, -JSON_EINVAL);
		return;
	}
	if (!member(w, key))
		return;
	putc_(w, array ? '[' : '{');
	w->array = (w->array & ~(1u << w->depth)) | ((u32)array << w->depth);
	w->member &= ~(1u << w->depth);
	w->depth++;
}

static void close_level(struct json_writer *w, bool array)
{
	if (w->depth < 2 || !(w->array & (1u << (w->depth - 1))) != !array) {
		fail(w, -JSON_EINVAL);
		return;
	}
	putc_(w, array ? ']' : '}');
	w->depth--;
}

void json_record(struct json_writer *w, char *buf, size_t size, const char *kind)
{
	*w = (struct json_writer){ .buf = buf, .size = size, .kind = kind, .depth = 1 };
	putc_(w, '{');
	json_u64(w, "schema", JSON_SCHEMA);
	if (kind)
		json_str(w, "kind", kind);
}

void json_str(struct json_writer *w, const char *key, const char *s)
{
	if (!s)
		json_null(w, key);
	else if (member(w, key))
		put_string(w, s);
}

void json_u64(struct json_writer *w, const char *key, u64 v)
{
	if (member(w, key))
		put_u64(w, v);
}

void json_hex(struct json_writer *w, const char *key, u64 v)
{
	char s[19] = "0x";
	unsigned int n = 2;
	int shift = 60;

	while (shift > 0 && !(v >> shift & 0xf))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		s[n++] = "0123456789abcdef"[v >> shift & 0xf];
	s[n] = '\0';
	json_str(w, key, s);
}

void json_s64(struct json_writer *w, const char *key, s64 v)
{
	if (!member(w, key))
		return;
	if (v < 0)
		putc_(w, '-');
	put_u64(w, v < 0 ? -(u64)v : (u64)v);
}

void json_fixed(struct json_writer *w, const char *key, s64 v, unsigned int decimals)
{
	u64 mag = v < 0 ? -(u64)v : (u64)v, scale = 1;
	char frac[18];

	if (decimals > sizeof(frac)) {
		fail(w, -JSON_EINVAL);
		return;
	}
	if (!member(w, key))
		return;
	for (unsigned int i = 0; i < decimals; i++) {
		frac[decimals - 1 - i] = (char)('0' + mag / scale % 10);
		scale *= 10;
	}
	if (v < 0)
		putc_(w, '-');
	put_u64(w, mag / scale);
	if (decimals) {
		putc_(w, '.');
		put(w, frac, decimals);
	}
}

void json_bool(struct json_writer *w, const char *key, bool v)
{
	if (member(w, key))
		put(w, v ? "true" : "false", v ? 4 : 5);
}

void json_null(struct json_writer *w, const char *key)
{
	if (member(w, key))
		put(w, "null", 4);
}

void json_u64_or_null(struct json_writer *w, const char *key, bool known, u64 v)
{
	if (known)
		json_u64(w, key, v);
	else
		json_null(w, key);
}

void json_obj_begin(struct json_writer *w, const char *key)
{
	open_level(w, key, false);
}

void json_obj_end(struct json_writer *w)
{
	close_level(w, false);
}

void json_arr_begin(struct json_writer *w, const char *key)
{
	open_level(w, key, true);
}

void json_arr_end(struct json_writer *w)
{
	close_level(w, true);
}

#ifndef CK_KERNEL
/* A 128-bit magnitude in decimal. */
static void put_u128(struct json_writer *w, unsigned __int128 v)
{
	char d[40];
	int n = 0;

	do {
		d[n++] = (char)('0' + (unsigned int)(v % 10));
		v /= 10;
	} while (v);
	while (n)
		putc_(w, d[--n]);
}

/*
 * Exactly: @v = m x 2^e, so @v x 10^d = m x 10^d x 2^e, an integer shifted right by -e with
 * the bits shifted out rounding it (half-way: to even, as glibc's printf). m < 2^53 and
 * 10^d < 2^30 keep m x 10^d inside 128 bits.
 */
void json_double(struct json_writer *w, const char *key, double v, unsigned int decimals)
{
	unsigned __int128 n, q, p10 = 1;
	u64 bits, m;
	int e;

	if (decimals > 9) {
		fail(w, -JSON_EINVAL);
		return;
	}
	__builtin_memcpy(&bits, &v, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (e == 0x7ff || (e && e - 1075 > 74)) {	/* NaN, infinity, >= 2^127 */
		json_null(w, key);
		return;
	}
	if (!member(w, key))
		return;
	if (e)
		m |= 1ULL << 52;
	e = e ? e - 1075 : -1074;
	for (unsigned int i = 0; i < decimals; i++)
		p10 *= 10;
	if (e >= 0) {
		q = (unsigned __int128)m << e;		/* an integer: the decimals are zeros */
		n = 0;
	} else {
		n = (unsigned __int128)m * p10;
		if (-e >= 128) {
			q = 0;				/* below half a unit of the last digit */
		} else {
			unsigned __int128 half = (unsigned __int128)1 << (-e - 1);
			unsigned __int128 r = n & ((half << 1) - 1);

			q = n >> -e;
			if (r > half || (r == half && (q & 1)))
				q++;
		}
		n = q % p10;
		q /= p10;
	}
	if (bits >> 63)
		putc_(w, '-');
	put_u128(w, q);
	if (decimals) {
		char frac[9];

		for (unsigned int i = decimals; i--; n /= 10)
			frac[i] = (char)('0' + (unsigned int)(n % 10));
		putc_(w, '.');
		put(w, frac, decimals);
	}
}
#endif

/* Close the record and terminate the text; true when it holds a whole record. */
static bool finish(struct json_writer *w)
{
	if (w->depth != 1)
		fail(w, -JSON_EINVAL);	/* a level left open, or ended twice */
	else
		putc_(w, '}');
	w->depth = -1;
	if (w->size)
		w->buf[MIN(w->len, w->size - 1)] = '\0';
	return !w->err;
}

long json_end(struct json_writer *w)
{
	struct json_writer e;

	if (finish(w))
		return (long)w->len;
	/* In place of the record: a short one saying why (or "" when even that cannot fit). */
	json_record(&e, w->buf, w->size, "json-error");
	json_str(&e, "error", w->err == -JSON_ENOSPC ? "overflow" : "misuse");
	json_str(&e, "record_kind", w->kind);
	json_u64(&e, "need", w->len + 1);
	json_u64(&e, "size", w->size);
	if (!finish(&e) && w->size)
		w->buf[0] = '\0';
	return w->err;
}
