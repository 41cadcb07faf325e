// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_json.c - the JSON-lines writer (kernel/lib/json.c) against independent sources: the
 * escapes RFC 8259 section 7 lists, Unicode's table of well-formed UTF-8 (the Unicode
 * Standard, table 3-7), glibc's printf for integers and "%.*f", and the reader in
 * json_check.h for validity; nesting, misuse and a buffer of every size up to the record's.
 */
#include <math.h>
#include <stdint.h>

#include "kernel/lib/json.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

static char buf[4096];

/* One record {"schema":1,"kind":"t","s":<s>}; the text of the "s" member's value. */
static const char *str_member(const char *s)
{
	struct json_writer w;
	static const char head[] = "{\"schema\":1,\"kind\":\"t\",\"s\":";
	long n;

	json_record(&w, buf, sizeof(buf), "t");
	json_str(&w, "s", s);
	n = json_end(&w);
	if (n < 0 || strncmp(buf, head, strlen(head)) || buf[n - 1] != '}')
		return "(bad record)";
	buf[n - 1] = '\0';
	return buf + strlen(head);
}

static void test_control_characters(void)
{
	/* RFC 8259 section 7: two-character forms for these five, \u00XX for the rest. */
	static const struct { int c; const char *esc; } rfc[] = {
		{ 0x08, "\\b" }, { 0x09, "\\t" }, { 0x0a, "\\n" }, { 0x0c, "\\f" }, { 0x0d, "\\r" },
	};
	char in[2] = { 0, 0 }, want[16];

	for (int c = 1; c < 0x20; c++) {
		snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		for (size_t i = 0; i < ARRAY_SIZE(rfc); i++)
			if (rfc[i].c == c)
				snprintf(want, sizeof(want), "\"%s\"", rfc[i].esc);
		in[0] = (char)c;
		CHECK(!strcmp(str_member(in), want), "0x%02x: %s, want %s", c, str_member(in),
		      want);
	}
	CHECK(!strcmp(str_member("\x7f"), "\"\\u007f\""), "DEL: %s", str_member("\x7f"));
	CHECK(!strcmp(str_member("\xc2\x80" "a\xc2\x9f"), "\"\\u0080a\\u009f\""),
	      "C1 controls U+0080, U+009F: %s", str_member("\xc2\x80" "a\xc2\x9f"));
	CHECK(!strcmp(str_member("\xc2\xa0"), "\"\xc2\xa0\""), "U+00A0 is not a control: %s",
	      str_member("\xc2\xa0"));
	CHECK(!strcmp(str_member("line\nnext"), "\"line\\nnext\""), "no raw newline: %s",
	      str_member("line\nnext"));
}

static void test_quotes_and_backslashes(void)
{
	CHECK(!strcmp(str_member("a\"b"), "\"a\\\"b\""), "quote: %s", str_member("a\"b"));
	CHECK(!strcmp(str_member("C:\\x\\"), "\"C:\\\\x\\\\\""), "backslashes: %s",
	      str_member("C:\\x\\"));
	CHECK(!strcmp(str_member("\\\""), "\"\\\\\\\"\""), "backslash then quote: %s",
	      str_member("\\\""));
	CHECK(!strcmp(str_member("a/b"), "\"a/b\""), "solidus needs no escape: %s",
	      str_member("a/b"));
	CHECK(!strcmp(str_member(""), "\"\""), "empty: %s", str_member(""));
	CHECK(!strcmp(str_member(NULL), "null"), "NULL string: %s", str_member(NULL));
}

static void test_utf8(void)
{
	/* Well-formed (table 3-7) passes; each byte of an ill-formed sequence is U+FFFD. */
	static const struct { const char *in, *out; } t[] = {
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },		/* U+10FFFF */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },			/* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },	/* overlong */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* U+D800 */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	/* > U+10FFFF */
		{ "\x80x", "\"\\ufffdx\"" },				/* lone continuation */
		{ "a\xe2\x82", "\"a\\ufffd\\ufffd\"" },			/* cut short */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		CHECK(!strcmp(str_member(t[i].in), t[i].out), "case %zu: %s, want %s", i,
		      str_member(t[i].in), t[i].out);
}

/* Every string of one or two bytes: valid JSON, and it decodes to the input made UTF-8. */
static void test_strings_round_trip(void)
{
	char in[3] = { 0 }, want[16], got[16];
	unsigned int bad = 0;

	for (unsigned int a = 1; a < 256; a++)
		for (unsigned int b = 0; b < 256; b++) {
			const char *p;
			size_t n;

			in[0] = (char)a;
			in[1] = (char)b;
			n = jc_utf8_fixed(in, strlen(in), want);
			want[n] = '\0';
			p = str_member(in);
			if (jc_string(&p, got, sizeof(got)) < 0 || *p || strcmp(got, want))
				bad++;
		}
	CHECK(bad == 0, "%u of 65280 strings did not decode to the input", bad);
}

static void test_integers(void)
{
	static const s64 sv[] = { 0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN };
	static const u64 uv[] = { 0, 1, 9, 10, 4294967296ULL, UINT64_MAX };
	char want[64];
	struct json_writer w;

	for (size_t i = 0; i < ARRAY_SIZE(sv); i++) {
		json_record(&w, buf, sizeof(buf), NULL);
		json_s64(&w, "v", sv[i]);
		json_end(&w);
		snprintf(want, sizeof(want), "{\"schema\":1,\"v\":%lld}", (long long)sv[i]);
		CHECK(!strcmp(buf, want), "s64: %s, want %s", buf, want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(uv); i++) {
		json_record(&w, buf, sizeof(buf), NULL);
		json_u64(&w, "v", uv[i]);
		json_end(&w);
		snprintf(want, sizeof(want), "{\"schema\":1,\"v\":%llu}",
			 (unsigned long long)uv[i]);
		CHECK(!strcmp(buf, want), "u64: %s, want %s", buf, want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(uv); i++) {
		json_record(&w, buf, sizeof(buf), NULL);
		json_hex(&w, "v", uv[i] ^ (i & 1 ? 0x9c0000000000009fULL : 0));
		json_end(&w);
		snprintf(want, sizeof(want), "{\"schema\":1,\"v\":\"0x%llx\"}",
			 (unsigned long long)(uv[i] ^ (i & 1 ? 0x9c0000000000009fULL : 0)));
		CHECK(!strcmp(buf, want), "hex: %s, want %s", buf, want);
	}
}

static void test_fixed_point(void)
{
	static const struct { s64 v; unsigned int d; const char *out; } t[] = {
		{ 957, 3, "0.957" }, { 1000, 3, "1.000" }, { 5, 3, "0.005" }, { -5, 2, "-0.05" },
		{ 1234, 0, "1234" }, { 0, 2, "0.00" }, { 7, 18, "0.000000000000000007" },
		{ INT64_MIN, 18, "-9.223372036854775808" },
		{ INT64_MAX, 1, "922337203685477580.7" },
	};
	struct json_writer w;
	char want[64];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		json_record(&w, buf, sizeof(buf), NULL);
		json_fixed(&w, "v", t[i].v, t[i].d);
		json_end(&w);
		snprintf(want, sizeof(want), "{\"schema\":1,\"v\":%s}", t[i].out);
		CHECK(!strcmp(buf, want), "%lld / 10^%u: %s, want %s", (long long)t[i].v, t[i].d,
		      buf, want);
	}
	json_record(&w, buf, sizeof(buf), NULL);
	json_fixed(&w, "v", 1, 19);
	CHECK(json_end(&w) == -JSON_EINVAL, "19 decimals is a misuse");
}

/* A double as the writer puts it, the member's value alone. */
static const char *dbl(double v, unsigned int d)
{
	struct json_writer w;
	long n;

	json_record(&w, buf, sizeof(buf), NULL);
	json_double(&w, "v", v, d);
	n = json_end(&w);
	if (n < 16)
		return "(bad record)";
	buf[n - 1] = '\0';
	return buf + strlen("{\"schema\":1,\"v\":");
}

static u64 xorshift(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_doubles(void)
{
	static const double special[] = { 0.0, -0.0, 0.125, 0.375, 2.5, 3.5, 1e-300, 5e-324,
					  0.0005, 123.4565, 1e15, 9007199254740993.0, 1e38,
					  -1.5, 24.886, 1.0 / 3 };
	char want[400];
	unsigned int bad = 0, tried = 0;
	u64 x = 0x243f6a8885a308d3ULL;

	CHECK(!strcmp(dbl(NAN, 3), "null") && !strcmp(dbl(-NAN, 3), "null"), "NaN is null");
	CHECK(!strcmp(dbl(INFINITY, 3), "null") && !strcmp(dbl(-INFINITY, 0), "null"),
	      "infinities are null");
	CHECK(!strcmp(dbl(0x1p127, 0), "null") && strcmp(dbl(0x1p126, 0), "null"),
	      "2^127 and more are null, 2^126 is not: %s", dbl(0x1p126, 0));
	for (size_t i = 0; i < ARRAY_SIZE(special); i++)
		for (unsigned int d = 0; d <= 9; d++) {
			snprintf(want, sizeof(want), "%.*f", (int)d, special[i]);
			CHECK(!strcmp(dbl(special[i], d), want), "%.17g %%.%uf: %s, want %s",
			      special[i], d, dbl(special[i], d), want);
		}
	/* Random bit patterns below 2^127 and random figures of the size the tools print. */
	for (int i = 0; i < 200000; i++) {
		u64 bits = xorshift(&x);
		unsigned int d = (unsigned int)(xorshift(&x) % 10);
		double v;

		if (i & 1) {
			v = (double)(xorshift(&x) % 100000000) / 1000.0;
		} else {
			memcpy(&v, &bits, sizeof(v));
			if (!isfinite(v) || fabs(v) >= 0x1p127)
				continue;
		}
		tried++;
		snprintf(want, sizeof(want), "%.*f", (int)d, v);
		if (strcmp(dbl(v, d), want) && bad++ < 5)
			printf("# %a %%.%uf: %s, printf %s\n", v, d, dbl(v, d), want);
	}
	CHECK(bad == 0, "%u of %u doubles differ from printf's %%.*f", bad, tried);
}

/* A figure taken or not: the number, or null (the value is ignored then). */
static void test_u64_or_null(void)
{
	struct json_writer w;

	json_record(&w, buf, sizeof(buf), "q");
	json_u64_or_null(&w, "a", true, 0);
	json_u64_or_null(&w, "b", false, 7);
	json_u64_or_null(&w, "c", true, ~0ULL);
	json_end(&w);
	CHECK(!strcmp(buf, "{\"schema\":1,\"kind\":\"q\",\"a\":0,\"b\":null,"
			   "\"c\":18446744073709551615}"), "taken or not: %s", buf);
}

static void test_nesting(void)
{
	struct json_writer w;
	long n;

	json_record(&w, buf, sizeof(buf), "n");
	json_obj_begin(&w, "o");
	json_arr_begin(&w, "a");
	json_u64(&w, NULL, 1);
	json_obj_begin(&w, NULL);
	json_bool(&w, "t", true);
	json_null(&w, "z");
	json_obj_end(&w);
	json_arr_begin(&w, NULL);
	json_arr_end(&w);
	json_arr_end(&w);
	json_obj_begin(&w, "e");
	json_obj_end(&w);
	json_obj_end(&w);
	json_bool(&w, "f", false);
	n = json_end(&w);
	CHECK(!strcmp(buf, "{\"schema\":1,\"kind\":\"n\",\"o\":{\"a\":[1,{\"t\":true,\"z\":null},"
			   "[]],\"e\":{}},\"f\":false}") && n == (long)strlen(buf) && jc_valid(buf),
	      "nested: %s (%ld)", buf, n);
	/* JSON_MAX_DEPTH levels below the record are allowed, one more is not. */
	for (int deep = JSON_MAX_DEPTH; deep <= JSON_MAX_DEPTH + 1; deep++) {
		json_record(&w, buf, sizeof(buf), "d");
		for (int i = 0; i < deep; i++)
			json_arr_begin(&w, i ? NULL : "a");
		for (int i = 0; i < deep; i++)
			json_arr_end(&w);
		n = json_end(&w);
		CHECK((deep == JSON_MAX_DEPTH) == (n > 0), "%d levels: %ld %s", deep, n, buf);
	}
}

/* Each misuse ends in -JSON_EINVAL and the error record, valid JSON naming the kind. */
static void test_misuse(void)
{
	static const char *const what[] = { "no key in an object", "a key in an array",
					    "an object closed as an array", "a level left open",
					    "closing the record", "a member after the end" };
	struct json_writer w;

	for (unsigned int k = 0; k < ARRAY_SIZE(what); k++) {
		long n;

		json_record(&w, buf, sizeof(buf), "m");
		switch (k) {
		case 0: json_u64(&w, NULL, 1); break;
		case 1: json_arr_begin(&w, "a"); json_u64(&w, "k", 1); json_arr_end(&w); break;
		case 2: json_obj_begin(&w, "o"); json_arr_end(&w); json_obj_end(&w); break;
		case 3: json_obj_begin(&w, "o"); break;
		case 4: json_obj_end(&w); break;
		case 5: json_end(&w); json_u64(&w, "late", 1); break;
		}
		n = json_end(&w);
		CHECK(n == -JSON_EINVAL && jc_valid(buf) &&
		      strstr(buf, "\"kind\":\"json-error\",\"error\":\"misuse\","
				  "\"record_kind\":\"m\""), "%s: %ld %s", what[k], n, buf);
	}
	/* A misuse after an overflow is still reported as the misuse: it is the bug to fix. */
	json_record(&w, buf, 20, "m");
	json_str(&w, "long", "more than twenty bytes");
	json_u64(&w, NULL, 1);
	CHECK(json_end(&w) == -JSON_EINVAL, "misuse outranks overflow");
}

/* A record of known length into buffers of every size: no byte written past the end. */
static void test_overflow(void)
{
	static char big[600];
	struct json_writer w;
	long full, n;
	unsigned int bad = 0;

	json_record(&w, big, sizeof(big), "result");
	json_str(&w, "machine", "hosted AuthenticAMD family 0x19 model 0x11");
	json_u64(&w, "median_mbps", 17123);
	full = json_end(&w);
	CHECK(full > 60 && full < (long)sizeof(big), "the record: %ld bytes", full);
	for (size_t size = 0; size <= (size_t)full + 1; size++) {
		char b[700];

		memset(b, '#', sizeof(b));
		json_record(&w, b, size, "result");
		json_str(&w, "machine", "hosted AuthenticAMD family 0x19 model 0x11");
		json_u64(&w, "median_mbps", 17123);
		n = json_end(&w);
		for (size_t i = size; i < sizeof(b); i++)
			bad += b[i] != '#';
		if (size == (size_t)full + 1) {
			CHECK(n == full && !strcmp(b, big), "exactly big enough: %ld", n);
		} else if (size) {
			char want[200];

			snprintf(want, sizeof(want), "{\"schema\":1,\"kind\":\"json-error\","
				 "\"error\":\"overflow\",\"record_kind\":\"result\","
				 "\"need\":%ld,\"size\":%zu}",
				 full + 1, size);
			CHECK(n == -JSON_ENOSPC && (strlen(want) < size ? !strcmp(b, want) : !b[0]),
			      "size %zu: %ld '%s'", size, n, b);
		} else {
			CHECK(n == -JSON_ENOSPC && b[0] == '#', "size 0: nothing written");
		}
	}
	CHECK(bad == 0, "%u bytes written past the buffer", bad);
}

int main(void)
{
	return RUN_TESTS(test_control_characters, test_quotes_and_backslashes, test_utf8,
			 test_strings_round_trip, test_integers, test_fixed_point, test_doubles,
			 test_u64_or_null, test_nesting, test_misuse, test_overflow);
}
