// SPDX-License-Identifier: GPL-2.0-only
/*
 * format.c - the kernel's printf engine. Pure C with no state, no allocation and no calls
 * outside this file, so the host unit test can compare it with the C library's snprintf.
 */
#include "kernel/lib/format.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum {
	F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16,
};

static void put_number(struct out *o, u64 v, bool neg, unsigned int base, bool upper,
		       int flags, int width, int prec)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, len, zeros = 0;
	char sign = 0;
	const char *prefix = "";
	int plen;

	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	if (prec < 0 && n == 0)
		tmp[n++] = '0';
	if (prec >= 0 && prec > n)
		zeros = prec - n;
	if (neg)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	if ((flags & F_ALT) && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = upper ? "0X" : "0x";
	if ((flags & F_ALT) && base == 8 && zeros == 0 && (n == 0 || tmp[n - 1] != '0'))
		zeros = 1;
	plen = (int)(prefix[0] ? 2 : 0);
	len = n + zeros + (sign ? 1 : 0) + plen;
	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && width > len) {
		zeros += width - len;
		len = width;
	}
	if (!(flags & F_LEFT))
		pad(o, ' ', width - len);
	if (sign)
		put(o, sign);
	while (*prefix)
		put(o, *prefix++);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		pad(o, ' ', width - len);
}

static void put_string(struct out *o, const char *s, int flags, int width, int prec)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (prec < 0 || n < prec))
		n++;
	if (!(flags & F_LEFT))
		pad(o, ' ', width - n);
	for (int i = 0; i < n; i++)
		put(o, s[i]);
	if (flags & F_LEFT)
		pad(o, ' ', width - n);
}

/* One conversion's flags, width, precision and length (-2 hh, -1 h, 0 int, 1 l, 2 ll z t j). */
struct spec {
	int flags, width, prec, lng;
};

static const char *parse_flags(const char *fmt, struct spec *sp)
{
	for (;; fmt++) {
		if (*fmt == '-')
			sp->flags |= F_LEFT;
		else if (*fmt == '+')
			sp->flags |= F_PLUS;
		else if (*fmt == ' ')
			sp->flags |= F_SPACE;
		else if (*fmt == '#')
			sp->flags |= F_ALT;
		else if (*fmt == '0')
			sp->flags |= F_ZERO;
		else
			return fmt;
	}
}

/* Width and precision, each a number or '*' (a negative '*' width means '-'). */
static const char *parse_width_prec(const char *fmt, va_list *ap, struct spec *sp)
{
	if (*fmt == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->flags |= F_LEFT;
			sp->width = -sp->width;
		}
		fmt++;
	} else {
		while (*fmt >= '0' && *fmt <= '9')
			sp->width = sp->width * 10 + (*fmt++ - '0');
	}
	if (*fmt != '.')
		return fmt;
	fmt++;
	sp->prec = 0;
	if (*fmt == '*') {
		sp->prec = va_arg(*ap, int);
		if (sp->prec < 0)
			sp->prec = -1;
		return fmt + 1;
	}
	while (*fmt >= '0' && *fmt <= '9')
		sp->prec = sp->prec * 10 + (*fmt++ - '0');
	return fmt;
}

static const char *parse_length(const char *fmt, struct spec *sp)
{
	if (*fmt == 'h') {
		sp->lng = -1;
		if (*++fmt == 'h') {
			sp->lng = -2;
			fmt++;
		}
	} else if (*fmt == 'l') {
		sp->lng = 1;
		if (*++fmt == 'l') {
			sp->lng = 2;
			fmt++;
		}
	} else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
		sp->lng = 2;
		fmt++;
	}
	return fmt;
}

static void put_signed(struct out *o, const struct spec *sp, va_list *ap)
{
	s64 sv;

	if (sp->lng >= 1)
		sv = sp->lng == 1 ? va_arg(*ap, long) : va_arg(*ap, long long);
	else
		sv = va_arg(*ap, int);
	if (sp->lng == -1)
		sv = (short)sv;
	else if (sp->lng == -2)
		sv = (signed char)sv;
	put_number(o, sv < 0 ? (u64)0 - (u64)sv : (u64)sv, sv < 0, 10, false, sp->flags,
		   sp->width, sp->prec);
}

static void put_unsigned(struct out *o, const struct spec *sp, unsigned int base, bool upper,
			 va_list *ap)
{
	u64 uv;

	if (sp->lng >= 1)
		uv = sp->lng == 1 ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned long long);
	else
		uv = va_arg(*ap, unsigned int);
	if (sp->lng == -1)
		uv = (unsigned short)uv;
	else if (sp->lng == -2)
		uv = (unsigned char)uv;
	put_number(o, uv, false, base, upper, sp->flags & ~(F_PLUS | F_SPACE), sp->width,
		   sp->prec);
}

/* The conversion character at @fmt with its spec; returns what follows it. */
static const char *convert(struct out *o, const char *fmt, const struct spec *sp, va_list *ap)
{
	switch (*fmt) {
	case 'd':
	case 'i':
		put_signed(o, sp, ap);
		break;
	case 'u':
		put_unsigned(o, sp, 10, false, ap);
		break;
	case 'x':
	case 'X':
		put_unsigned(o, sp, 16, *fmt == 'X', ap);
		break;
	case 'o':
		put_unsigned(o, sp, 8, false, ap);
		break;
	case 'p':
		put_number(o, (u64)(uintptr_t)va_arg(*ap, void *), false, 16, false,
			   sp->flags | F_ALT, sp->width, sp->prec);
		break;
	case 'c':
		pad(o, ' ', (sp->flags & F_LEFT) ? 0 : sp->width - 1);
		put(o, (char)va_arg(*ap, int));
		pad(o, ' ', (sp->flags & F_LEFT) ? sp->width - 1 : 0);
		break;
	case 's':
		put_string(o, va_arg(*ap, const char *), sp->flags, sp->width, sp->prec);
		break;
	case '%':
		put(o, '%');
		break;
	case '\0':
		return fmt;	/* a lone '%' at the end prints nothing */
	default:
		put(o, '%');
		put(o, *fmt);
		break;
	}
	return fmt + 1;
}

int ck_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };
	va_list args;

	va_copy(args, ap);	/* passed on by address: a va_list parameter may be an array */
	while (*fmt) {
		struct spec sp = { .prec = -1 };

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_flags(fmt + 1, &sp);
		fmt = parse_width_prec(fmt, &args, &sp);
		fmt = parse_length(fmt, &sp);
		fmt = convert(&o, fmt, &sp, &args);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ck_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ck_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void ck_appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	size_t at = *len < size ? *len : size;
	va_list ap;

	va_start(ap, fmt);
	*len += (size_t)ck_vsnprintf(at < size ? buf + at : NULL, size - at, fmt, ap);
	va_end(ap);
}

size_t ck_slug(char *buf, size_t size, const char *name)
{
	size_t n = 0;
	bool gap = false;

	if (size < 2) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	for (; *name && n + 1 < size; name++) {
		char c = *name;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
			if (gap && n) {
				if (n + 2 >= size)
					break;	/* no room for '_' and the next word */
				buf[n++] = '_';
			}
			gap = false;
			buf[n++] = c;
		} else {
			gap = true;
		}
	}
	if (!n)
		buf[n++] = '_';
	buf[n] = '\0';
	return n;
}
