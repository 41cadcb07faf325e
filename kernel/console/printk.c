// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk.c - the console list, and printk: format into a stack buffer and write to every
 * console. Long output is cut at PRINTK_MAX bytes with a marker; nothing here allocates or
 * takes a lock.
 */
#include "kernel/console/printk.h"

#define PRINTK_MAX	512

static struct console *consoles;

void register_console(struct console *con)
{
	struct console **p = &consoles;

	for (; *p; p = &(*p)->next)
		if (*p == con)
			return;
	con->next = NULL;
	*p = con;
}

void console_write(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_MAX];
	int n = ck_vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len = n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

	console_write(buf, len);
	if (len < (size_t)n)
		console_write("[...]\n", 6);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
