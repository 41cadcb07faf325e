// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ksyms.c - symbol lookup on a table built the way tools/gen-ksyms.sh lays it out.
 */
#include <stdint.h>

#include "kernel/lib/ksyms.h"
#include "tests/host/host_test.h"

static union {
	struct ksyms_blob b;
	unsigned char raw[512];
} blob;

static void build(const uint32_t *offs, const char *const *names, uint32_t n)
{
	uint32_t pos = (uint32_t)(sizeof(struct ksyms_blob) + n * sizeof(struct ksyms_entry));

	memset(&blob, 0, sizeof(blob));
	blob.b.count = n;
	for (uint32_t i = 0; i < n; i++) {
		blob.b.e[i].offset = offs[i];
		blob.b.e[i].name = pos;
		strcpy((char *)blob.raw + pos, names[i]);
		pos += (uint32_t)strlen(names[i]) + 1;
	}
}

static void test_lookup(void)
{
	static const uint32_t offs[] = { 0x1000, 0x1040, 0x1040, 0x2000 };
	static const char *const names[] = { "start", "alias_a", "alias_b", "last" };
	uint64_t d = 99;
	const char *s;

	build(offs, names, 4);
	CHECK(ksyms_lookup(&blob.b, 0xfff, &d) == NULL, "before the first symbol");
	s = ksyms_lookup(&blob.b, 0x1000, &d);
	CHECK(s && !strcmp(s, "start") && d == 0, "exact first: %s+%llu", s, (unsigned long long)d);
	s = ksyms_lookup(&blob.b, 0x103f, &d);
	CHECK(s && !strcmp(s, "start") && d == 0x3f, "inside first");
	s = ksyms_lookup(&blob.b, 0x1041, &d);
	CHECK(s && !strcmp(s, "alias_b") && d == 1, "aliases: the last one wins: %s", s);
	s = ksyms_lookup(&blob.b, 0x123456, &d);
	CHECK(s && !strcmp(s, "last") && d == 0x123456 - 0x2000, "beyond the last");
	build(offs, names, 0);
	CHECK(ksyms_lookup(&blob.b, 0x1000, &d) == NULL, "empty table");
}

int main(void)
{
	return RUN_TESTS(test_lookup);
}
