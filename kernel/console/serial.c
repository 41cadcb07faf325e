// SPDX-License-Identifier: GPL-2.0-only
/*
 * serial.c - polled 16550 UART output. Every wait is bounded, so a missing or wedged UART
 * drops characters instead of hanging the machine.
 */
#include "kernel/console/printk.h"
#include "kernel/console/serial.h"
#include "kernel/include/x86.h"

#define UART_THR	0	/* transmit holding (DLAB=0) */
#define UART_DLL	0	/* divisor low (DLAB=1) */
#define UART_IER	1
#define UART_DLM	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_SCR	7
#define LSR_THRE	0x20
#define LCR_DLAB	0x80
#define LCR_8N1		0x03
#define UART_CLOCK	115200

static u16 uart_port;
static u32 uart_baud;
static bool uart_ok;

static struct console serial_console = { .name = "ttyS", .write = serial_write };

bool serial_init(u16 port, u32 baud)
{
	u32 div = baud ? UART_CLOCK / baud : 0;

	register_console(&serial_console);

	uart_port = port;
	uart_baud = baud;
	uart_ok = false;
	if (div == 0 || div > 0xffff)
		return false;
	/* The scratch register echoes on a real 16550; a missing UART floats to 0xff. */
	outb(port + UART_SCR, 0x5a);
	if (inb(port + UART_SCR) != 0x5a)
		return false;
	outb(port + UART_IER, 0);
	outb(port + UART_LCR, LCR_DLAB);
	outb(port + UART_DLL, div & 0xff);
	outb(port + UART_DLM, div >> 8);
	outb(port + UART_LCR, LCR_8N1);
	outb(port + UART_FCR, 0x07);	/* enable and clear FIFOs */
	outb(port + UART_MCR, 0x03);	/* DTR, RTS */
	uart_ok = true;
	return true;
}

static void serial_putc(char c)
{
	u32 spins = 1000000;

	while (!(inb(uart_port + UART_LSR) & LSR_THRE) && --spins)
		cpu_relax();
	outb(uart_port + UART_THR, (u8)c);
}

void serial_write(const char *s, size_t n)
{
	if (!uart_ok)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

u16 serial_port(void)
{
	return uart_ok ? uart_port : 0;
}

u32 serial_baud(void)
{
	return uart_baud;
}
