/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.h - the run's summary as JSON, kept in UEFI variables so it survives the reboot
 * that ends a run on hardware.
 *
 * Variables "CopykernelResult0", "CopykernelResult1", ... under the vendor GUID
 * 6c6b6b63-7970-4b65-8e72-6e656c727573, each holding a 12-byte header then a piece of the
 * JSON text: "CKR1", u16 chunk index, u16 chunk count, u32 run id (little endian). A reader
 * joins the chunks of one run id in index order (tools/ck-results.py).
 *
 * The soak's black box is one more variable, "CopykernelSoak" (soak/blackbox.h: who wrote
 * it, then the soak's checkpoint record). The soak calls results_checkpoint_write() through
 * the sink the run registers; the next boot finds the bytes in boot_info (boot/ read them),
 * says what the previous run left (results_report_previous()) and keeps that in its summary
 * as "previous_soak". Once a summary holding an unfinished checkpoint is stored, the variable
 * is marked as reported by this run, so later boots say it was reported before.
 */
#ifndef CK_INIT_RESULTS_H
#define CK_INIT_RESULTS_H

#include "kernel/include/boot_info.h"
#include "ktest/lib/ktap.h"

#define RESULTS_CHUNK		3968	/* payload per variable: fits OVMF's smallest limit */
#define RESULTS_MAX_CHUNKS	8
#define RESULTS_MAX_BYTES	(RESULTS_CHUNK * RESULTS_MAX_CHUNKS)

enum results_state {
	RESULTS_NOT_STORED,	/* not tried yet */
	RESULTS_STORED,
	RESULTS_NO_FIRMWARE,	/* no runtime services to store through */
	RESULTS_FAILED,		/* the firmware refused (a full variable store, ...) */
};

/*
 * A variable store: keep @size bytes of @data as the non-volatile variable @name (@size 0
 * deletes it); returns 0 or the store's error. The firmware's is boot/'s boot_info
 * fw_set_var, which results_init() takes for the run's summary.
 */
typedef int (*results_set_var_fn)(const char *name, const void *data, size_t size);

struct results_outcome {
	enum results_state state;
	int err;			/* the store's error when state is RESULTS_FAILED */
	u32 run_id;
	size_t chunks, bytes;		/* variables written, bytes of JSON in them */
	bool cut;			/* the JSON was longer than RESULTS_MAX_BYTES */
	unsigned int stale_failed;	/* chunks of an older summary not deleted ... */
	unsigned int stale_first;	/* ... the first of them, and its error */
	int stale_err;
};

/* Keep the firmware's store, the run id and the start time, and store again on the way out. */
void results_init(const struct boot_info *bi);
/* The suites' totals, once they ran (the command-line errors: init/cmdline_errors.h). */
void results_set_tests(const struct ktap_totals *tot);
/* Write the summary JSON for @status into @buf; returns its length. */
size_t results_json(int status, char *buf, size_t size);
/*
 * Write @len bytes of @json as the chunks of run @run_id through @set_var, then delete the
 * chunks an older, longer summary left; what happened goes to @out.
 */
void results_write(results_set_var_fn set_var, const char *json, size_t len, u32 run_id,
		   struct results_outcome *out);
/* What @o says, one "results: ..." line or several joined by '\n' (no '\n' at the end). */
void results_outcome_text(const struct results_outcome *o, char *buf, size_t size);
/* The summary line's word for @o: "stored", "NOT-STORED(error-N)" or "console-only". */
void results_outcome_word(const struct results_outcome *o, char *buf, size_t size);
/*
 * Store the run's summary through the firmware and print what happened. The run stores before
 * its summary line (which says whether it worked) and again on the way out when the status
 * changed since.
 */
void results_store(int status);
/* What the last store through the firmware did, and the firmware's error when it failed. */
enum results_state results_state(int *err);
/* The summary line's word for the last store. */
void results_state_word(char *buf, size_t size);

/*
 * The soak's checkpoint sink: store @len bytes of the soak's record @rec in CopykernelSoak
 * through the firmware, at the pace soak/blackbox.h states. Returns 0, -EINVAL (not a soak
 * checkpoint), -EAGAIN (sooner than the pacing allows: not written), -EBUSY (the firmware is
 * storing the summary on another CPU), or -EIO (no store, or the firmware refused it). Its
 * time is one SetVariable call; each write stored is one line on the console.
 */
int results_checkpoint_write(const void *rec, size_t len);
/* One line: what the previous run left in CopykernelSoak (results_init() read it). */
void results_report_previous(void);

#endif
