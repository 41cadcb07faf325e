// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_json.c - libFuzzer target for the JSON-lines writer (kernel/lib/json.c).
 *
 * The input is a program: a buffer size, then operations (open or close an object or an
 * array, a member of each type, keys and strings taken from the input's bytes). Properties,
 * whatever the program:
 *   - nothing is written past the buffer (it is allocated to its size: ASan sees a byte
 *     more), and the text is NUL-terminated inside it;
 *   - json_end() says misuse exactly when a model of the nesting rules (kept here) does;
 *   - a record that ends well is valid JSON (tests/host/json_check.h), starts with
 *     {"schema":1, holds no raw newline, is as long as json_end() said, and each string
 *     member's value decodes to its input made well-formed UTF-8 (checked on the last one);
 *   - an overflow leaves a valid error record or ""; run again with a buffer of the "need"
 *     it reports, the same program fits exactly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/json.h"
#include "tests/host/json_check.h"

struct prog {
	const uint8_t *d;
	size_t n, at;
};

static uint8_t next(struct prog *p)
{
	return p->at < p->n ? p->d[p->at++] : 0;
}

static uint64_t next64(struct prog *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | next(p);
	return v;
}

/* A string of up to 15 bytes from the input (no NUL: it would end the string). */
static const char *next_str(struct prog *p, char *s)
{
	size_t len = next(p) % 16, k = 0;

	for (size_t i = 0; i < len; i++) {
		char c = (char)next(p);

		if (c)
			s[k++] = c;
	}
	s[k] = '\0';
	return s;
}

static char last_in[16];
static int last_str;		/* a string member was the last member written */

/*
 * Run the program into @buf (@size bytes); returns json_end()'s result. *@misuse: the
 * model's verdict (a key where none belongs or none where one does, a close that does not
 * match, nesting too deep, bad decimals).
 */
static long run(const uint8_t *data, size_t n, char *buf, size_t size, int *misuse)
{
	struct prog p = { data, n, 1 };
	struct json_writer w;
	int stack[32], depth = 0;	/* 1: array */
	char key[16], val[16];

	*misuse = 0;
	last_str = 0;
	json_record(&w, buf, size, "fuzz");
	while (p.at < p.n) {
		uint8_t op = next(&p);
		int in_array = depth && stack[depth - 1];
		const char *k = (op & 0x80) ? NULL : next_str(&p, key);

		if (!in_array != !!k && (op & 15) != 2 && (op & 15) != 3)
			*misuse = 1;		/* opening a level is a member too: checked below */
		switch (op & 15) {
		case 0: case 1:
			if (!in_array != !!k || depth >= JSON_MAX_DEPTH)
				*misuse = 1;
			else
				stack[depth++] = op & 1;
			if (op & 1)
				json_arr_begin(&w, k);
			else
				json_obj_begin(&w, k);
			break;
		case 2: case 3:
			if (!depth || stack[depth - 1] != (op & 1))
				*misuse = 1;
			else
				depth--;
			if (op & 1)
				json_arr_end(&w);
			else
				json_obj_end(&w);
			break;
		case 4:
			json_str(&w, k, next_str(&p, val));
			memcpy(last_in, val, sizeof(val));
			last_str = 1;
			continue;
		case 5: json_s64(&w, k, (int64_t)next64(&p)); break;
		case 6: json_u64(&w, k, next64(&p)); break;
		case 7: {
			uint64_t v = next64(&p);
			unsigned int dec = next(&p) % 20;

			if (dec > 18)
				*misuse = 1;
			json_fixed(&w, k, (int64_t)v, dec);
			break;
		}
		case 8: {
			uint64_t bits = next64(&p);
			unsigned int dec = next(&p) % 11;
			double v;

			memcpy(&v, &bits, sizeof(v));
			if (dec > 9)
				*misuse = 1;
			json_double(&w, k, v, dec);
			break;
		}
		case 9: json_bool(&w, k, next(&p) & 1); break;
		default: json_null(&w, k); break;
		}
		last_str = 0;
	}
	if (depth)
		*misuse = 1;
	return json_end(&w);
}

/* The last member of a record that ends with a string: @close is its closing quote. */
static void check_last_string(const char *text, const char *close)
{
	static char want[64], got[64];
	const char *q;
	size_t n;

	/* Back to the opening quote: the first '"' behind an even run of backslashes. */
	for (q = close - 1; q > text; q--) {
		size_t bs = 0;

		for (const char *r = q - 1; r > text && *r == '\\'; r--)
			bs++;
		if (*q == '"' && !(bs & 1))
			break;
	}
	n = jc_utf8_fixed(last_in, strlen(last_in), want);
	want[n] = '\0';
	if (jc_string(&q, got, sizeof(got)) < 0 || q != close + 1 || strcmp(got, want))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t bsize = size ? (size_t)data[0] * 4 : 0;
	char *buf = malloc(bsize ? bsize : 1);
	int misuse;
	long r;

	r = run(data, size, buf, bsize, &misuse);
	if (misuse != (r == -JSON_EINVAL))
		abort();
	if (bsize && !memchr(buf, '\0', bsize))
		abort();
	if (r >= 0) {
		if ((size_t)r != strlen(buf) || strncmp(buf, "{\"schema\":1,", 12) ||
		    strchr(buf, '\n') || !jc_valid(buf))
			abort();
		if (last_str)
			check_last_string(buf, buf + r - 2);
	} else if (bsize && buf[0]) {
		const char *need = strstr(buf, "\"need\":");

		if (!jc_valid(buf) || !strstr(buf, "\"kind\":\"json-error\"") || !need)
			abort();
		if (r == -JSON_ENOSPC) {
			size_t want = strtoull(need + 7, NULL, 10);
			char *again = malloc(want);

			if (want <= bsize ||
			    run(data, size, again, want, &misuse) != (long)want - 1)
				abort();
			free(again);
		}
	}
	free(buf);
	return 0;
}
