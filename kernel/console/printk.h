/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk.h - kernel console output: formatted text to every registered console.
 *
 * Consoles (the 16550, the framebuffer) register themselves when they are ready; printk
 * writes to each in registration order, under one console lock. Nothing here allocates.
 */
#ifndef CK_PRINTK_H
#define CK_PRINTK_H

#include "kernel/lib/format.h"

struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};

/* Add @con to the list (once; registering it again does nothing). */
void register_console(struct console *con);

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
void console_write(const char *s, size_t n);
/* The SMP layer names the running CPU, for the console lock's owner (printk.c). */
void console_set_cpu_id(unsigned int (*fn)(void));
/*
 * Lines printed only at a line boundary: after each printk that ends a line, the console
 * asks @fn for them (one line into @buf per call; 0 when there is none) and writes them.
 */
void console_set_deferred(size_t (*fn)(char *buf, size_t size));

#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk("error: " fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk("warning: " fmt, ##__VA_ARGS__)

#endif
