/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fbcon.h - text on the GOP framebuffer, mirroring the serial console, and the summary
 * screen drawn at the end of a run.
 */
#ifndef CK_FBCON_H
#define CK_FBCON_H

#include "kernel/include/boot_info.h"

/* Start mirroring console output; returns false (and says why) when it cannot. */
bool fbcon_init(const struct framebuffer_info *fb);
bool fbcon_active(void);
void fbcon_write(const char *s, size_t n);
/*
 * Stop (true) or resume (false) mirroring. Drawing is slow; code that must be in a tight
 * loop right after printing a line (an injection request) pauses the mirror first.
 */
void fbcon_pause(bool pause);

struct fb_bar {
	const char *label;
	u64 value;		/* bar length is relative to the largest value */
	const char *text;	/* printed after the bar */
};

/*
 * Clear the screen and draw the summary: a banner in the verdict's colour with @verdict in
 * large letters, @lines of text, and a horizontal bar chart.
 */
void fbcon_summary(const char *verdict, bool good, const char *const *lines, unsigned int nl,
		   const struct fb_bar *bars, unsigned int nb, const char *chart_title);

#endif
