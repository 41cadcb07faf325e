/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dimm_labels.h - rasdaemon's DIMM labels database (its labels.db / dimm_labels.d format):
 * which silkscreen label sits at EDAC location <mc>.<row>.<channel> on one board, picked by
 * the SMBIOS baseboard's vendor and product. A file that breaks a rule is refused whole,
 * with its line and what is wrong. Plain C.
 */
#ifndef CK_MCE_DIMM_LABELS_H
#define CK_MCE_DIMM_LABELS_H

#include "kernel/include/types.h"

#define DIMM_LABELS_MAX		128	/* locations kept for the matching board */
#define DIMM_LABEL_LEN		32	/* a label's longest text plus its NUL */
#define DIMM_LABELS_LINE_MAX	255	/* the longest line taken */

struct dimm_label {
	u16 mc, row, ch;
	char name[DIMM_LABEL_LEN];
};

struct dimm_labels {
	bool board_found;		/* a Model:/Board: section named this board */
	unsigned int n;			/* its locations with three numbers (mc.row.channel) */
	struct dimm_label e[DIMM_LABELS_MAX];
	unsigned int bad_line;		/* 0, or the 1-based line the file broke a rule on */
	const char *error;		/* what was wrong there */
};

/*
 * Parse @text for the board @vendor / @board (compared without regard to case or outer
 * blanks). Returns 0, or -1 with @db->bad_line and @db->error set and nothing kept.
 */
int dimm_labels_parse(struct dimm_labels *db, const char *text, size_t len,
		      const char *vendor, const char *board);
/* The label at (mc, row, channel), the file's last word for it; NULL when none. */
const char *dimm_labels_find(const struct dimm_labels *db, unsigned int mc, unsigned int row,
			     unsigned int ch);

#endif
