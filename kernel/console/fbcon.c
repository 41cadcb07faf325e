// SPDX-License-Identifier: GPL-2.0-only
/*
 * fbcon.c - a framebuffer text console: the built-in 5x7 font scaled by two in 12x18 pixel
 * cells (106x44 characters at 1280x800), 32-bit BGRX or RGBX pixels. At the bottom the text
 * jumps up by half a screen, so a long log costs a few framebuffer moves, not one per line.
 * Only plain text is drawn: no escape sequences are interpreted or produced.
 */
#include "kernel/console/fbcon.h"
#include "kernel/console/font.h"
#include "kernel/console/printk.h"
#include "kernel/lib/string.h"

#define SCALE	2
#define CELL_W	((FONT_W + 1) * SCALE)
#define CELL_H	((FONT_H + 2) * SCALE)

#define RGB(r, g, b)	(((u32)(r) << 16) | ((u32)(g) << 8) | (u32)(b))
#define COL_BG		RGB(0x10, 0x14, 0x1c)
#define COL_FG		RGB(0xd8, 0xdc, 0xe0)
#define COL_GOOD	RGB(0x1e, 0x8c, 0x3c)
#define COL_BAD		RGB(0xb4, 0x1e, 0x1e)
#define COL_BAR		RGB(0x3c, 0x78, 0xd2)
#define COL_WHITE	RGB(0xff, 0xff, 0xff)

static struct {
	bool on, rgbx, paused;
	u32 *base;
	u32 width, height, stride;
	int cols, rows, cx, cy;
	int top;		/* first text row that may scroll: below the summary, once drawn */
} fb;

bool fbcon_active(void)
{
	return fb.on;
}

static u32 pixel(u32 rgb)
{
	if (!fb.rgbx)
		return rgb;
	return ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
}

static void fill(u32 x, u32 y, u32 w, u32 h, u32 rgb)
{
	u32 p = pixel(rgb);

	if (x >= fb.width || y >= fb.height)
		return;
	w = MIN(w, fb.width - x);
	h = MIN(h, fb.height - y);
	for (u32 j = 0; j < h; j++) {
		u32 *row = fb.base + (u64)(y + j) * fb.stride + x;

		for (u32 i = 0; i < w; i++)
			row[i] = p;
	}
}

static void glyph(u32 x, u32 y, char c, u32 scale, u32 fg, u32 bg)
{
	const u8 *g = font_glyph(c);

	fill(x, y, (FONT_W + 1) * scale, (FONT_H + 2) * scale, bg);
	for (int r = 0; r < FONT_H; r++)
		for (int i = 0; i < FONT_W; i++)
			if (g[r] & (1u << (FONT_W - 1 - i)))
				fill(x + (u32)i * scale, y + (u32)(r + 1) * scale, scale, scale,
				     fg);
}

static void text(u32 x, u32 y, const char *s, u32 scale, u32 fg, u32 bg)
{
	for (; *s; s++, x += (FONT_W + 1) * scale)
		glyph(x, y, *s, scale, fg, bg);
}

static struct console fb_console = { .name = "fb", .write = fbcon_write };

bool fbcon_init(const struct framebuffer_info *info)
{
	fb.on = false;
	if (info->format != FB_BGRX && info->format != FB_RGBX) {
		printk("fbcon: %s: running headless, serial only\n", info->format == FB_NONE ?
		       "no GOP framebuffer" : "pixel format not 32-bit BGRX/RGBX");
		return false;
	}
	fb.base = (u32 *)(uintptr_t)info->base;
	fb.width = info->width;
	fb.height = info->height;
	fb.stride = info->stride;
	fb.rgbx = info->format == FB_RGBX;
	fb.cols = (int)(fb.width / CELL_W);
	fb.rows = (int)(fb.height / CELL_H);
	fb.cx = fb.cy = 0;
	if (fb.cols < 20 || fb.rows < 10)
		return false;
	fill(0, 0, fb.width, fb.height, COL_BG);
	fb.on = true;
	register_console(&fb_console);
	printk("fbcon: %ux%u framebuffer, %dx%d text, mirroring the serial console\n", fb.width,
	       fb.height, fb.cols, fb.rows);
	return true;
}

/*
 * Move the text up by half a screen: 8-byte moves, row by row. Once the summary is on
 * screen, text below it wraps back to the top of its own area instead, so the summary stays.
 */
static void scroll(void)
{
	if (fb.top) {
		fill(0, (u32)fb.top * CELL_H, fb.width, fb.height - (u32)fb.top * CELL_H, COL_BG);
		fb.cy = fb.top;
		return;
	}
	int keep = fb.rows / 2, drop = fb.rows - keep;
	u32 dy = (u32)drop * CELL_H;

	for (u32 y = 0; y < (u32)keep * CELL_H; y++) {
		u64 *d = (u64 *)(fb.base + (u64)y * fb.stride);
		const u64 *s = (const u64 *)(fb.base + (u64)(y + dy) * fb.stride);

		for (u32 i = 0; i < fb.width / 2; i++)
			d[i] = s[i];
	}
	fill(0, (u32)keep * CELL_H, fb.width, fb.height - (u32)keep * CELL_H, COL_BG);
	fb.cy = keep;
}

void fbcon_pause(bool pause)
{
	fb.paused = pause;
}

void fbcon_write(const char *s, size_t n)
{
	if (!fb.on || fb.paused)
		return;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n' || fb.cx >= fb.cols) {
			fb.cx = 0;
			if (++fb.cy >= fb.rows)
				scroll();
			if (c == '\n')
				continue;
		}
		if (c == '\r')
			continue;
		glyph((u32)fb.cx * CELL_W, (u32)fb.cy * CELL_H, c, SCALE, COL_FG, COL_BG);
		fb.cx++;
	}
}

void fbcon_summary(const char *verdict, bool good, const char *const *lines, unsigned int nl,
		   const struct fb_bar *bars, unsigned int nb, const char *chart_title)
{
	u32 y, big = 8, banner = (FONT_H + 4) * big, label_w = 22 * CELL_W, max_w;
	u64 max = 1;

	if (!fb.on)
		return;
	fill(0, 0, fb.width, fb.height, COL_BG);
	fill(0, 0, fb.width, banner, good ? COL_GOOD : COL_BAD);
	text(2 * big, big, verdict, big, COL_WHITE, good ? COL_GOOD : COL_BAD);
	y = banner + CELL_H;
	for (unsigned int i = 0; i < nl && y + CELL_H < fb.height; i++, y += CELL_H)
		text(CELL_W, y, lines[i], SCALE, COL_FG, COL_BG);
	y += CELL_H;
	if (nb && y + CELL_H < fb.height) {
		text(CELL_W, y, chart_title, SCALE, COL_FG, COL_BG);
		y += CELL_H + CELL_H / 2;
	}
	for (unsigned int i = 0; i < nb; i++)
		max = MAX(max, bars[i].value);
	max_w = fb.width > label_w + 30 * CELL_W ? fb.width - label_w - 30 * CELL_W : 0;
	for (unsigned int i = 0; i < nb && y + CELL_H < fb.height; i++, y += CELL_H + 4) {
		u32 w = (u32)(bars[i].value * max_w / max);

		text(CELL_W, y, bars[i].label, SCALE, COL_FG, COL_BG);
		fill(label_w, y + 2, MAX(w, 2u), CELL_H - 4, COL_BAR);
		text(label_w + w + CELL_W, y, bars[i].text, SCALE, COL_FG, COL_BG);
	}
	/* Further console text goes below the chart, in an area of its own. */
	fb.top = MIN((int)(y / CELL_H) + 1, fb.rows - 4);
	fb.cy = fb.top;
	fb.cx = 0;
}
