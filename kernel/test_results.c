// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_results.c - storing the run's summary in UEFI variables, through stand-ins for the
 * firmware's store given to the same writer the run uses (results_write): a store that
 * refuses (a full variable store, error 9) must be reported as NOT-STORED, and a store over
 * an older, longer result must delete the chunks it no longer uses. The run's own store, and
 * what the summary line says of it, are left alone: the run stores after the tests.
 */
#include "kernel/lib/string.h"
#include "kernel/results.h"
#include "tests/ctx.h"
#include "tests/ktap.h"

static char json[RESULTS_MAX_BYTES + 1];

static int refuse(const char *name, const void *data, size_t size)
{
	return 9;	/* EFI_OUT_OF_RESOURCES: the variable store is full */
}

static struct {
	unsigned int writes, deletes;
	bool deleted[RESULTS_MAX_CHUNKS];
} seen;

static int record(const char *name, const void *data, size_t size)
{
	const char *p = name + strlen("CopykernelResult");

	if (strncmp(name, "CopykernelResult", 16) || *p < '0' || *p > '9')
		return 2;
	if (size) {
		seen.writes++;
	} else {
		seen.deletes++;
		if ((unsigned int)(*p - '0') < RESULTS_MAX_CHUNKS)
			seen.deleted[*p - '0'] = true;
	}
	return 0;
}

/* The run's summary through @set_var; what the run would print of it, as diagnostics. */
static void store_through(results_set_var_fn set_var, struct results_outcome *o)
{
	char text[400], *line = text;

	results_write(set_var, json, results_json(0, json, sizeof(json)), 0x7e57, o);
	results_outcome_text(o, text, sizeof(text));
	for (char *p = text; ; p++) {
		if (*p && *p != '\n')
			continue;
		ck_diag("stand-in store: %.*s", (int)(p - line), line);
		if (!*p)
			break;
		line = p + 1;
	}
}

static void store_refused_is_reported(struct ck_test *t)
{
	struct results_outcome o;
	char word[32];

	store_through(refuse, &o);
	report(t, o.state == RESULTS_FAILED && o.err == 9,
	       "a refused store is recorded (state %d, error %d)", o.state, o.err);
	results_outcome_word(&o, word, sizeof(word));
	report(t, !strcmp(word, "NOT-STORED(error-9)"), "the summary line says '%s'", word);
}

static void stale_chunks_deleted(struct ck_test *t)
{
	struct results_outcome o;
	bool all = true;
	char word[32];

	memset(&seen, 0, sizeof(seen));
	store_through(record, &o);
	for (unsigned int i = seen.writes; i < RESULTS_MAX_CHUNKS; i++)
		all &= seen.deleted[i];
	report(t, seen.writes >= 1 && seen.writes == o.chunks &&
	       seen.writes + seen.deletes == RESULTS_MAX_CHUNKS && all,
	       "%u chunks written, the %u after them deleted", seen.writes, seen.deletes);
	results_outcome_word(&o, word, sizeof(word));
	report(t, !strcmp(word, "stored"), "then the summary line says '%s'", word);
}

CK_SUITE(results, 95,
	 CK_CASE(store_refused_is_reported),
	 CK_CASE(stale_chunks_deleted));
