// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - build the run summary and leave it in UEFI variables, and keep the soak's black
 * box there (see results.h).
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "init/cmdline_errors.h"
#include "init/results.h"
#include "kernel/arch/exit.h"
#include "kernel/console/printk.h"
#include "kernel/include/errno.h"
#include "kernel/include/status.h"
#include "kernel/include/version.h"
#include "kernel/include/x86.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/secureboot.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "mce/mce.h"
#include "soak/blackbox.h"

static const struct boot_info *boot;
static struct ktap_totals totals;
static bool tests_ran;
static bool storing;
static u32 run_id;
static char started[40];
static struct results_outcome last;	/* of the last store through the firmware */
static int stored_status = -1;
static struct bb_writer ckpt;		/* this run's soak checkpoints */
static struct bb_prev prev;		/* what the previous run left in CopykernelSoak */
static bool prev_marked;		/* marked as reported by this run */
static int fw_busy;			/* a CPU is in the firmware's variable services */

#define FW_WAIT_MS	500		/* how long the summary waits for a checkpoint write */

static bool fw_trylock(void)
{
	int idle = 0;

	return __atomic_compare_exchange_n(&fw_busy, &idle, 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void fw_unlock(void)
{
	__atomic_store_n(&fw_busy, 0, __ATOMIC_RELEASE);
}

/*
 * The firmware's variable services are entered by one CPU at a time. The summary waits
 * FW_WAIT_MS for a checkpoint write in flight (the firmware may be stopped inside it when
 * another CPU panicked); false when it is still there.
 */
static bool fw_lock_wait(void)
{
	u64 hz = tsc_info()->hz, t0 = rdtsc();

	while (!fw_trylock()) {
		if (!hz || rdtsc() - t0 > hz / 1000 * FW_WAIT_MS)
			return false;
		cpu_relax();
	}
	return true;
}

static u64 now_ns(void)
{
	return tsc_to_ns(rdtsc());
}

enum results_state results_state(int *err)
{
	if (err)
		*err = last.err;
	return last.state;
}

void results_state_word(char *buf, size_t size)
{
	results_outcome_word(&last, buf, size);
}

static void results_on_exit(enum ck_status status)
{
	if (last.state == RESULTS_STORED && stored_status == (int)status)
		return;		/* the same summary is there already */
	results_store((int)status);
}

static struct exit_notifier results_notifier = { .fn = results_on_exit };

void results_init(const struct boot_info *bi)
{
	boot = bi;
	run_id = (u32)rdtsc();
	if (!bi->fw_get_time || bi->fw_get_time(started, sizeof(started)))
		started[0] = '\0';
	bb_writer_init(&ckpt, bi->fw_set_var, now_ns, run_id, started);
	bb_prev_from(&prev, &bi->prev_ckpt);
	register_exit_notifier(&results_notifier);
}

void results_report_previous(void)
{
	char text[1024];

	bb_prev_text(&prev, text, sizeof(text));
	if (prev.state == BB_PREV_UNREAD || prev.state == BB_PREV_DAMAGED)
		pr_warn("blackbox: %s\n", text);
	else
		printk("blackbox: %s\n", text);
}

/* What one checkpoint write did, on the console: each one stored, the first of each failure. */
static void checkpoint_said(int ret)
{
	static bool said_bad, said_failed;
	char at[32];

	if (!ret) {
		bb_duration(ckpt.last_elapsed_ns, at, sizeof(at));
		printk("# blackbox: soak checkpoint %u of run %08x stored in %s (%s into the "
		       "soak%s)\n", ckpt.h.seq, run_id, BOOT_CKPT_VAR, at,
		       ckpt.final ? ", final" : "");
	} else if (ret == -EINVAL && !said_bad) {
		said_bad = true;
		printk("# warning: blackbox: a checkpoint that is not a well-formed soak record "
		       "was not stored\n");
	} else if (ret == -EIO && !said_failed && !ckpt.set_var) {
		said_failed = true;
		printk("# warning: blackbox: no firmware variable store (no runtime services): "
		       "soak checkpoints are not kept\n");
	} else if (ret == -EIO && !said_failed) {
		said_failed = true;
		printk("# warning: blackbox: the firmware refused the soak checkpoint (error %d): "
		       "%s\n", ckpt.last_err, ckpt.h.seq ? "the last one stored stays" :
		       "none is stored");
	}
}

int results_checkpoint_write(const void *rec, size_t len)
{
	int ret;

	if (!fw_trylock())
		return -EBUSY;
	ret = bb_write(&ckpt, rec, len);
	fw_unlock();
	checkpoint_said(ret);
	return ret;
}

/*
 * Once a summary that holds the previous run's unfinished checkpoint is stored (and this run
 * has written none over it), the variable says who reported it: one more write, once.
 */
static void mark_previous_reported(void)
{
	static u8 buf[BB_MAX];
	struct bb_header h = prev.v.h;
	size_t len;
	int err;

	if (prev.state != BB_PREV_UNFINISHED || h.reported_by || prev_marked || ckpt.h.seq ||
	    last.state != RESULTS_STORED)
		return;
	prev_marked = true;
	h.reported_by = run_id;
	len = bb_encode(&h, prev.v.rec, prev.v.rec_len, buf, sizeof(buf));
	err = boot->fw_set_var(BOOT_CKPT_VAR, buf, len);
	if (err)
		pr_warn("blackbox: could not mark run %08x's checkpoint as reported (error %d): "
			"the next boot reports it again\n", h.run_id, err);
	else
		printk("blackbox: run %08x's checkpoint is in this run's summary: marked as "
		       "reported\n", h.run_id);
}

void results_set_tests(const struct ktap_totals *tot)
{
	totals = *tot;
	tests_ran = true;
}

/* "cmdline_problems": each command-line error the run kept, the word and what was taken. */
static void results_cmdline_json(struct json_writer *w)
{
	const char *const *briefs;
	unsigned int n = cmdline_errors_kept(&briefs);

	json_arr_begin(w, "cmdline_problems");
	for (unsigned int i = 0; i < n; i++)
		json_str(w, NULL, briefs[i]);
	json_arr_end(w);
}

/* "cpus": every CPU's start and MCA state (mce_cpus_init), inside the "mce" object. */
static void results_cpus_json(struct json_writer *w)
{
	const struct smp_info *si = smp_info();
	char sum[256];

	mce_cpus_summary_text(sum, sizeof(sum));
	json_obj_begin(w, "cpus");
	json_u64(w, "numbered", smp_nr_cpus());
	json_u64(w, "started", smp_nr_online());
	json_u64(w, "failed", si->nr_failed);
	json_str(w, "summary", sum);
	json_arr_begin(w, "per_cpu");
	for (unsigned int c = 0; c < smp_nr_cpus() && c < 64; c++) {
		const struct mce_cpu_facts *f = mce_cpu_facts(c);

		if (!f || !f->started)
			continue;
		json_obj_begin(w, NULL);
		json_u64(w, "cpu", c);
		json_u64(w, "banks", f->nbanks);
		json_u64(w, "stale", f->stale);
		json_u64(w, "not_enabled", f->not_enabled);
		json_u64(w, "shared", f->shared);
		json_str(w, "shared_by", f->share == MCE_SHARE_CMCI ? "cmci" :
			 f->share == MCE_SHARE_IPID ? "ipid" : "unknown");
		json_bool(w, "lmce", f->lmce);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

/* "cpu" (what was found), "tsc_hz" and "dispatch" (what was chosen). */
static void results_cpu_json(struct json_writer *w)
{
	const struct cpu_ident *c = cpu();

	json_obj_begin(w, "cpu");
	json_str(w, "vendor", c->vendor_str);
	json_u64(w, "family", c->family);
	json_u64(w, "model", c->model);
	json_u64(w, "stepping", c->stepping);
	json_u64(w, "microcode", c->ucode_rev);
	json_bool(w, "erms", c->erms);
	json_bool(w, "fsrm", c->fsrm);
	json_bool(w, "rep_good", c->rep_good);
	json_obj_end(w);
	json_u64(w, "tsc_hz", tsc_info()->hz);
	json_obj_begin(w, "dispatch");
	json_str(w, "copy_page", copy_page_impl_names[copy_ops.choice.copy_page]);
	json_str(w, "memcpy", memcpy_impl_names[copy_ops.choice.memcpy]);
	json_str(w, "copy_mc", copy_mc_impl_names[copy_ops.choice.copy_mc]);
	json_str(w, "clear_page", clear_page_impl_names[copy_ops.choice.clear_page]);
	json_obj_end(w);
}

static void results_mce_json(struct json_writer *w)
{
	const struct mce_caps *m = mce_caps();
	u64 recovered = 0;

	for (u64 i = 0; i < mce_count(); i++) {
		const struct mce_record *r = mce_get(i);

		recovered += r && r->recovered;
	}
	json_obj_begin(w, "mce");
	json_bool(w, "enabled", m->enabled);
	json_u64(w, "banks", m->nbanks);
	json_u64(w, "records", mce_count());
	json_u64(w, "recovered", recovered);
	json_arr_begin(w, "poisoned_pfns");
	for (unsigned int i = 0; i < poison_log.n; i++)
		json_u64(w, NULL, poison_log.pfn[i]);
	json_arr_end(w);
	results_cpus_json(w);
	json_obj_end(w);
}

size_t results_json(int status, char *buf, size_t size)
{
	struct json_writer w;
	char id[12];
	long n;

	ck_snprintf(id, sizeof(id), "%08x", run_id);
	json_record(&w, buf, size, NULL);
	json_str(&w, "version", CK_VERSION);
	json_str(&w, "run_id", id);
	json_str(&w, "started", started[0] ? started : NULL);
	json_s64(&w, "status", status);
	json_str(&w, "status_name", ck_status_name((enum ck_status)status));
	json_str(&w, "result", ck_status_result((enum ck_status)status));
	json_str(&w, "reason", ck_status_reason((enum ck_status)status));
	json_obj_begin(&w, "tests");
	json_bool(&w, "ran", tests_ran);
	json_u64(&w, "suites", totals.suites);
	json_u64(&w, "pass", totals.pass);
	json_u64(&w, "fail", totals.fail);
	json_u64(&w, "skip", totals.skip);
	json_obj_end(&w);
	json_str(&w, "cmdline", boot ? boot->cmdline : "");
	json_s64(&w, "cmdline_errors", cmdline_errors());
	results_cmdline_json(&w);
	results_cpu_json(&w);
	sb_json(&w, "secure_boot", secure_boot());
	results_mce_json(&w);
	bb_prev_json(&w, "previous_soak", &prev);
	bb_writer_json(&w, "soak_checkpoints", &ckpt);
	n = json_end(&w);
	/* A summary that did not fit is stored as the writer's error record, which says so. */
	return n < 0 ? strlen(buf) : (size_t)n;
}

/* One variable: the CKR1 header (results.h) and up to RESULTS_CHUNK bytes of the JSON. */
static int put_chunk(results_set_var_fn set_var, const char *json, size_t len, u32 run,
		     size_t i, size_t chunks)
{
	static u8 var[12 + RESULTS_CHUNK];
	size_t n = MIN(RESULTS_CHUNK, len - i * RESULTS_CHUNK);
	char name[24];

	memcpy(var, "CKR1", 4);
	var[4] = (u8)i;
	var[5] = (u8)(i >> 8);
	var[6] = (u8)chunks;
	var[7] = (u8)(chunks >> 8);
	memcpy(var + 8, &run, 4);
	memcpy(var + 12, json + i * RESULTS_CHUNK, n);
	ck_snprintf(name, sizeof(name), "CopykernelResult%zu", i);
	return set_var(name, var, 12 + n);
}

void results_write(results_set_var_fn set_var, const char *json, size_t len, u32 run,
		   struct results_outcome *out)
{
	size_t chunks;
	int err = 0;

	*out = (struct results_outcome){ .run_id = run, .cut = len > RESULTS_MAX_BYTES };
	len = MIN(len, RESULTS_MAX_BYTES);
	chunks = (len + RESULTS_CHUNK - 1) / RESULTS_CHUNK;
	for (size_t i = 0; i < chunks && !err; i++)
		err = put_chunk(set_var, json, len, run, i, chunks);
	/* Chunks of an older, longer summary would let a reader mix two runs: delete them. */
	for (size_t i = chunks; i < RESULTS_MAX_CHUNKS && !err; i++) {
		char name[24];
		int e;

		ck_snprintf(name, sizeof(name), "CopykernelResult%zu", i);
		e = set_var(name, NULL, 0);
		if (e && !out->stale_failed++) {
			out->stale_first = (unsigned int)i;
			out->stale_err = e;
		}
	}
	out->state = err ? RESULTS_FAILED : RESULTS_STORED;
	out->err = err;
	out->chunks = chunks;
	out->bytes = len;
}

void results_outcome_word(const struct results_outcome *o, char *buf, size_t size)
{
	if (o->state == RESULTS_STORED)
		ck_snprintf(buf, size, "stored");
	else if (o->state == RESULTS_FAILED)
		ck_snprintf(buf, size, "NOT-STORED(error-%d)", o->err);
	else
		ck_snprintf(buf, size, "console-only");
}

void results_outcome_text(const struct results_outcome *o, char *buf, size_t size)
{
	size_t len = 0;

	if (o->cut)
		ck_appendf(buf, size, &len, "results: summary longer than %u bytes, cut\n",
			   RESULTS_MAX_BYTES);
	if (o->stale_failed)
		ck_appendf(buf, size, &len, "results: could not delete the stale variable "
			   "CopykernelResult%u (error %d)%s\n", o->stale_first, o->stale_err,
			   o->stale_failed > 1 ? " and others" : "");
	if (o->state == RESULTS_FAILED)
		ck_appendf(buf, size, &len, "results: NOT STORED: the firmware refused the UEFI "
			   "variable (error %d; 9 is a full variable store): the summary is only on "
			   "this console", o->err);
	else
		ck_appendf(buf, size, &len, "results: summary stored in %zu UEFI variable%s "
			   "CopykernelResult* (run id %08x, %zu bytes of JSON)", o->chunks,
			   o->chunks == 1 ? "" : "s", o->run_id, o->bytes);
}

void results_store(int status)
{
	static char json[RESULTS_MAX_BYTES + 1];
	char text[400];
	size_t len;

	if (!boot || !boot->fw_set_var) {
		last.state = RESULTS_NO_FIRMWARE;
		return;
	}
	if (storing)
		return;
	storing = true;		/* a fault in the firmware must not bring us back here */
	if (!fw_lock_wait()) {
		last.state = RESULTS_FAILED;
		last.err = EBUSY;
		printk("results: NOT STORED: another CPU is still inside the firmware's variable "
		       "services (a soak checkpoint write): the summary is only on this console\n");
		storing = false;
		return;
	}
	len = results_json(status, json, sizeof(json));
	results_write(boot->fw_set_var, json, len, run_id, &last);
	stored_status = status;
	mark_previous_reported();
	fw_unlock();
	results_outcome_text(&last, text, sizeof(text));
	printk("%s\n", text);
	storing = false;
}
