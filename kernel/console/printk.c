// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk.c - the console list, and printk: format into a stack buffer and write to every
 * console. Long output is cut at PRINTK_MAX bytes with a marker; nothing here allocates.
 *
 * One lock keeps lines from several CPUs apart. It records its owner (1 + the CPU number the
 * SMP layer registers with console_set_cpu_id(); 1 before that), so an exception report that
 * prints in the middle of its own CPU's line goes straight through, and a CPU that waits
 * about 2^27 spins (a holder stopped by the panic path's NMI) writes without the lock and
 * leaves the holder's lock alone. Waiters read the lock before trying to take it, so it does
 * not bounce between hundreds of CPUs.
 *
 * Lines that must not land inside another (NMI notes, kernel/arch/traps.c) are not printed
 * where they arise: their source, registered with console_set_deferred(), is asked for them
 * each time a printk that took the lock ends a line, while it still holds the lock.
 */
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

#define PRINTK_MAX	512
#define LOCK_SPINS	(1UL << 27)
#define DEFERRED_PER_LINE	32	/* the rest wait for the next line's end */

static struct console *consoles;
static size_t (*deferred)(char *buf, size_t size);
static volatile u32 console_owner;	/* 1 + the CPU writing, 0: free */
static unsigned int (*console_cpu)(void);

void console_set_cpu_id(unsigned int (*fn)(void))
{
	console_cpu = fn;
}

void console_set_deferred(size_t (*fn)(char *buf, size_t size))
{
	deferred = fn;
}

/* True when this call took the lock and must release it. */
static bool lock(void)
{
	u32 me = console_cpu ? console_cpu() + 1 : 1, free = 0;

	if (__atomic_load_n(&console_owner, __ATOMIC_RELAXED) == me)
		return false;		/* an NMI inside this CPU's own line */
	for (unsigned long i = 0; i < LOCK_SPINS; i++) {
		if (!__atomic_load_n(&console_owner, __ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&console_owner, &free, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
		free = 0;
		cpu_relax();
	}
	return false;
}

static void unlock(bool held)
{
	if (held)
		__atomic_store_n(&console_owner, 0, __ATOMIC_RELEASE);
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

/* At a line boundary, lock held: the lines that waited for one, into @buf one at a time. */
static void write_deferred(char *buf, size_t size)
{
	size_t n;

	for (unsigned int i = 0; deferred && i < DEFERRED_PER_LINE; i++) {
		n = deferred(buf, size);
		if (!n)
			break;
		write_locked(buf, MIN(n, size));
	}
}

void console_write(const char *s, size_t n)
{
	bool held = lock();

	write_locked(s, n);
	unlock(held);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_MAX];
	int n = ck_vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len = n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	bool held = lock();

	write_locked(buf, len);
	if (len < (size_t)n)
		write_locked("[...]\n", 6);
	if (held && len && (len < (size_t)n || buf[len - 1] == '\n'))
		write_deferred(buf, sizeof(buf));
	unlock(held);
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
