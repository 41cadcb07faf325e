/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk.h - kernel console output: formatted text to every console (the serial port today).
 */
#ifndef CK_PRINTK_H
#define CK_PRINTK_H

#include "kernel/format.h"

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
void console_write(const char *s, size_t n);

#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk("error: " fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk("warning: " fmt, ##__VA_ARGS__)

#endif
