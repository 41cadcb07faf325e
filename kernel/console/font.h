/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * font.h - the built-in 5x7 console font (printable ASCII).
 */
#ifndef CK_FONT_H
#define CK_FONT_H

#include "kernel/include/types.h"

#define FONT_W		5
#define FONT_H		7
#define FONT_FIRST	' '
#define FONT_LAST	'~'

/* Seven rows of five bits (bit 4 = leftmost pixel); '?' for anything unprintable. */
const u8 *font_glyph(char c);

#endif
