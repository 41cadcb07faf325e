// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk.c - the console list, and printk: format into a stack buffer and write to every
 * console. Long output is cut at PRINTK_MAX bytes with a marker; nothing here allocates.
 *
 * One lock keeps lines from several CPUs apart. It is bounded: a CPU that waits about
 * 2^27 spins takes it anyway, so a holder that was stopped by an NMI (or this CPU, when an
 * NMI printed in the middle of a line) costs a pause, never a hang.
 */
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

#define PRINTK_MAX	512
#define LOCK_SPINS	(1UL << 27)

static struct console *consoles;
static volatile u32 console_lock;

static void lock(void)
{
	for (unsigned long i = 0; i < LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&console_lock, 1, __ATOMIC_ACQUIRE))
			return;
		cpu_relax();
	}
}

static void unlock(void)
{
	__atomic_store_n(&console_lock, 0, __ATOMIC_RELEASE);
}

void register_console(struct console *con)
{
	struct console **p = &consoles;

	for (; *p; p = &(*p)->next)
		if (*p == con)
			return;
	con->next = NULL;
	*p = con;
}

static void write_locked(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
}

void console_write(const char *s, size_t n)
{
	lock();
	write_locked(s, n);
	unlock();
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_MAX];
	int n = ck_vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len = n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

	lock();
	write_locked(buf, len);
	if (len < (size_t)n)
		write_locked("[...]\n", 6);
	unlock();
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
