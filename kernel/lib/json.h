/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - the JSON-lines writer: every JSON record the image and the hosted tools emit is
 * built here (plain C, host-tested in tests/host/test_json.c, fuzzed in tests/fuzz).
 *
 * A record is one JSON object on one line. json_record() opens it with "schema" (JSON_SCHEMA:
 * the one place the version is kept) and "kind"; members follow in call order, objects and
 * arrays nest up to JSON_MAX_DEPTH levels below the record; json_end() closes it. The text
 * goes into the caller's fixed buffer: nothing is written at or past @size, the text is always
 * NUL-terminated, and it never holds a newline, so the caller's line is the record.
 *
 * docs/schema/copykernel-records-v1.json describes every kind (make check validates each
 * record it sees against it): a new kind, member or value goes into it in the same commit; a
 * member renamed, removed, retyped or given another meaning bumps JSON_SCHEMA and starts the
 * next schema file.
 *
 *	struct json_writer w;
 *
 *	json_record(&w, buf, sizeof(buf), "result");
 *	json_str(&w, "api", "folio_copy");
 *	json_u64(&w, "size", 2097152);
 *	json_end(&w);		-> {"schema":1,"kind":"result","api":"folio_copy","size":2097152}
 *
 * Strings (RFC 8259 section 7): '"' and '\' get a backslash; every control character
 * (Unicode's Cc: U+0000..U+001F, U+007F..U+009F) is escaped, \b \f \n \r \t where JSON has
 * a short form, else \u00xx. Valid UTF-8 passes through; each byte that is not part of a
 * valid UTF-8 sequence (overlong forms, surrogates, above U+10FFFF, cut short) is written
 * as \ufffd, so the record is valid UTF-8 (RFC 8259 section 8.1) whatever the input. A NULL
 * string is written as null.
 *
 * Numbers: signed and unsigned 64-bit integers; fixed point (json_fixed(w, "scaling", 957, 3)
 * writes 0.957); on the host also a double with a number of decimals, written as C's
 * "%.*f" would (correctly rounded, ties to even). JSON has no NaN or infinity: those are
 * written as null, as are finite doubles of magnitude 2^127 or more (none of ours comes near).
 *
 * Errors: a record that does not fit, or a misuse (a member without a key inside an object or
 * with one inside an array, a close that does not match, nesting too deep, a bad count of
 * decimals, a member after the end) makes json_end() return a negative error and leave in the
 * buffer, instead of the cut record, one that says so:
 *
 *	{"schema":1,"kind":"json-error","error":"overflow","record_kind":"result","need":1210,
 *	 "size":1024}
 *
 * ("error":"misuse" for the other case; "need" counts the terminating NUL). When even that
 * does not fit the buffer holds "". Callers write the buffer either way, so a lost record
 * shows where it would have been.
 */
#ifndef CK_JSON_H
#define CK_JSON_H

#include "kernel/include/types.h"

#define JSON_SCHEMA	1		/* the version every record carries as "schema" */
#define JSON_MAX_DEPTH	8		/* objects and arrays open inside the record */

/* json_end()'s errors, negated, with Linux's values. */
#define JSON_EINVAL	22		/* misuse */
#define JSON_ENOSPC	28		/* the record did not fit */

struct json_writer {
	char *buf;
	size_t size;
	size_t len;			/* bytes the record needs so far; may pass @size */
	const char *kind;		/* for the error record */
	u32 array;			/* bit d: level d is an array (level 0: the record) */
	u32 member;			/* bit d: level d has a member already */
	int depth;			/* open levels, the record included; -1: ended */
	int err;			/* 0 or a negative error */
};

/* Open a record of @kind in @buf (@kind NULL: "schema" alone). */
void json_record(struct json_writer *w, char *buf, size_t size, const char *kind);

/* Members. @key is the member's name in an object, NULL in an array. */
void json_str(struct json_writer *w, const char *key, const char *s);
void json_s64(struct json_writer *w, const char *key, s64 v);
void json_u64(struct json_writer *w, const char *key, u64 v);
/* A 64-bit register as a string "0x..." (lower case, no leading zeros): JSON numbers lose
 * bits past 2^53. */
void json_hex(struct json_writer *w, const char *key, u64 v);
/* @v / 10^@decimals with exactly @decimals digits after the point (0..18). */
void json_fixed(struct json_writer *w, const char *key, s64 v, unsigned int decimals);
void json_bool(struct json_writer *w, const char *key, bool v);
void json_null(struct json_writer *w, const char *key);
/* @v when @known, else null: a figure the run could not take. */
void json_u64_or_null(struct json_writer *w, const char *key, bool known, u64 v);
void json_obj_begin(struct json_writer *w, const char *key);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w, const char *key);
void json_arr_end(struct json_writer *w);

#ifndef CK_KERNEL	/* the image is built without floating point */
/* @v with @decimals digits after the point (0..9), as "%.*f"; NaN and infinity: null. */
void json_double(struct json_writer *w, const char *key, double v, unsigned int decimals);
#endif

/*
 * Close the record (and check that every object and array was closed). Returns its length,
 * or -JSON_ENOSPC / -JSON_EINVAL with the error record in the buffer instead.
 */
long json_end(struct json_writer *w);

#endif
