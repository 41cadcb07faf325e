/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * serial.h - 16550 UART driver (polled, transmit only).
 */
#ifndef CK_SERIAL_H
#define CK_SERIAL_H

#include "kernel/include/types.h"

#define SERIAL_DEFAULT_PORT	0x3f8
#define SERIAL_DEFAULT_BAUD	115200

/* Program 8N1 at @baud. Returns false when no UART answers at @port (output is then dropped). */
bool serial_init(u16 port, u32 baud);
void serial_write(const char *s, size_t n);
u16 serial_port(void);
u32 serial_baud(void);

#endif
