/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.h - the run's summary as JSON, kept in UEFI variables so it survives the reboot
 * that ends a run on hardware.
 *
 * Variables "CopykernelResult0", "CopykernelResult1", ... under the vendor GUID
 * 6c6b6b63-7970-4b65-8e72-6e656c727573, each holding a 12-byte header then a piece of the
 * JSON text: "CKR1", u16 chunk index, u16 chunk count, u32 run id (little endian). A reader
 * joins the chunks of one run id in index order (tools/ck-results.py).
 */
#ifndef CK_RESULTS_H
#define CK_RESULTS_H

#include "kernel/include/boot_info.h"
#include "tests/ktap.h"

#define RESULTS_CHUNK		3968	/* payload per variable: fits OVMF's smallest limit */
#define RESULTS_MAX_CHUNKS	8

enum results_state {
	RESULTS_NOT_STORED,	/* not tried yet */
	RESULTS_STORED,
	RESULTS_NO_FIRMWARE,	/* no runtime services to store through */
	RESULTS_FAILED,		/* the firmware refused (a full variable store, ...) */
};

void results_init(const struct boot_info *bi);
void results_set_tests(const struct ktap_totals *tot, int cmdline_errors);
/* Write the summary JSON for @status into @buf; returns its length. */
size_t results_json(int status, char *buf, size_t size);
/*
 * Store it through the firmware; prints what happened. Chunks an older, longer result left
 * are deleted. The run stores before its summary line (which says whether it worked) and
 * again on the way out when the status changed since.
 */
void results_store(int status);
/* What the last store did, and the firmware's error when it failed. */
enum results_state results_state(int *err);
/* The summary line's word for it: "stored", "NOT-STORED(error-N)" or "console-only". */
void results_state_word(char *buf, size_t size);
/* Tests: store through @fn instead of the firmware (NULL: the firmware again). */
void results_set_store_fn(int (*fn)(const char *name, const void *data, size_t size));

#endif
