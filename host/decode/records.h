/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * records.h - machine-check bank records read back from text a lab copied: the image's own
 * report lines (mce/report.c's "bank B: STATUS ...", mce/poll_report.c's "mce-poll: CPU ..."
 * and their ADDR/IPID/SYND lines) and the lines Linux's mce code prints
 * ("CPU n: Machine Check ... Bank b: <status>", "ADDR", "MISC", "SYND", "IPID", "SOCKET").
 * Each record is decoded (mce/dimm.c) and written as one JSON object. Plain C.
 */
#ifndef CK_HOST_DECODE_RECORDS_H
#define CK_HOST_DECODE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mce/dimm_labels.h"

struct rec_reader {
	const struct dimm_labels *labels;	/* NULL: no labels file */
	void (*out)(void *ctx, const char *json);	/* one JSON object, no newline */
	void (*bad)(void *ctx, unsigned int line, const char *why);
	void *ctx;
	unsigned int records, bad_lines;
	unsigned int mc_cpu;			/* the reader's: the image's "on CPU c" */
};

/* Read @text (any number of lines and records), calling @r->out and @r->bad. */
void rec_read(struct rec_reader *r, const char *text, size_t len);

#endif
