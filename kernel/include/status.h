/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.h - how a run ended, as every layer names it.
 *
 * Under QEMU with -device isa-debug-exit,iobase=0xf4, writing v makes QEMU exit with status
 * (v << 1) | 1, so the host sees:
 *   1  all tests passed            (CK_STATUS_PASS)
 *   3  some test failed            (CK_STATUS_FAIL)
 *   5  panic: unexpected exception or fatal error (CK_STATUS_PANIC)
 *   7  bad command line and no failure: the verdict ERROR (CK_STATUS_CMDLINE)
 * tools/ck-run.py maps them to 0, 1, 2, 3. Precedence: panic > failed > bad command line.
 *
 * The verdict word every report prints (the summary line's result=, the JSON's "result", the
 * summary screen): PASS, FAIL, PANIC, and ERROR for a bad command line (reason=cmdline) with
 * no failure: a run that is not the one asked for is never a PASS.
 */
#ifndef CK_STATUS_H
#define CK_STATUS_H

enum ck_status {
	CK_STATUS_PASS = 0,
	CK_STATUS_FAIL = 1,
	CK_STATUS_PANIC = 2,
	CK_STATUS_CMDLINE = 3,
};

static inline const char *ck_status_name(enum ck_status s)
{
	switch (s) {
	case CK_STATUS_PASS:	return "all tests passed";
	case CK_STATUS_FAIL:	return "some tests failed";
	case CK_STATUS_PANIC:	return "panic";
	case CK_STATUS_CMDLINE:	return "bad command line";
	}
	return "unknown";
}

static inline const char *ck_status_result(enum ck_status s)
{
	switch (s) {
	case CK_STATUS_PASS:	return "PASS";
	case CK_STATUS_FAIL:	return "FAIL";
	case CK_STATUS_PANIC:	return "PANIC";
	case CK_STATUS_CMDLINE:	return "ERROR";
	}
	return "ERROR";
}

/* Why the result is what it is, where the word alone does not say: "cmdline", or NULL. */
static inline const char *ck_status_reason(enum ck_status s)
{
	return s == CK_STATUS_CMDLINE ? "cmdline" : NULL;
}

#endif
