// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_numa.c - SRAT and SLIT parsing on synthetic tables: three nodes (two with CPUs, one
 * with memory only), a disabled entry, domains numbered sparsely, and malformed tables:
 * overlapping or wrapping ranges, too many domains or ranges, invalid SLIT distances.
 */
#include <stdint.h>

#include "kernel/platform/numa.h"
#include "tests/host/host_test.h"

static unsigned char srat[4096], slit[256];

static size_t hdr(unsigned char *t, const char *sig, size_t len)
{
	uint32_t l = (uint32_t)len;

	memcpy(t, sig, 4);
	memcpy(t + 4, &l, 4);
	return len;
}

static size_t cpu(size_t off, uint32_t domain, uint32_t flags)
{
	memset(srat + off, 0, 16);
	srat[off] = 0;
	srat[off + 1] = 16;
	srat[off + 2] = (uint8_t)domain;
	memcpy(srat + off + 4, &flags, 4);
	srat[off + 9] = (uint8_t)(domain >> 8);
	return off + 16;
}

static size_t mem(size_t off, uint32_t domain, uint64_t base, uint64_t size, uint32_t flags)
{
	memset(srat + off, 0, 40);
	srat[off] = 1;
	srat[off + 1] = 40;
	memcpy(srat + off + 2, &domain, 4);
	memcpy(srat + off + 8, &base, 8);
	memcpy(srat + off + 16, &size, 8);
	memcpy(srat + off + 28, &flags, 4);
	return off + 40;
}

static size_t build(void)
{
	size_t off = 48;

	memset(srat, 0, sizeof(srat));
	off = cpu(off, 0, 1);
	off = cpu(off, 0x105, 1);		/* domain 0x105: high byte in byte 9 */
	off = cpu(off, 7, 0);			/* disabled: ignored */
	off = mem(off, 0, 0, 0xa0000, 1);
	off = mem(off, 0, 0x100000, 0x3ff00000, 1);
	off = mem(off, 0x105, 0x40000000, 0x20000000, 1);
	off = mem(off, 9, 0x60000000, 0x20000000, 3);	/* hot-pluggable, no CPU */
	off = mem(off, 4, 0x80000000, 0x10000000, 0);	/* disabled */
	return hdr(srat, "SRAT", off);
}

static void test_srat(void)
{
	struct numa_info n;
	const char *why;
	size_t len = build();

	CHECK(numa_parse_srat(srat, len, &n, &why) == 0, "parse: %s", why ? why : "");
	CHECK(n.nr_nodes == 3, "three nodes: %u", n.nr_nodes);
	CHECK(n.domain[0] == 0 && n.domain[1] == 0x105 && n.domain[2] == 9, "domains in order");
	CHECK(n.cpus[0] == 1 && n.cpus[1] == 1 && n.cpus[2] == 0, "CPUs per node");
	CHECK(n.bytes[0] == 0xa0000 + 0x3ff00000ULL && n.bytes[1] == 0x20000000 &&
	      n.bytes[2] == 0x20000000, "memory per node");
	CHECK(n.nr_ranges == 4 && n.range[3].hotplug, "ranges, hot-plug flag");
	CHECK(numa_node_of(&n, 0x50000000) == 1 && numa_node_of(&n, 0x7fffffff) == 2 &&
	      numa_node_of(&n, 0x90000000) == -1 && numa_node_of(&n, 0xa0000) == -1,
	      "address to node");
}

static void test_slit(void)
{
	struct numa_info n;
	const char *why;
	uint64_t loc = 10;
	size_t len = build();

	numa_parse_srat(srat, len, &n, &why);
	memset(slit, 0, sizeof(slit));
	memcpy(slit + 36, &loc, 8);
	for (int i = 0; i < 10; i++)
		for (int j = 0; j < 10; j++)
			slit[44 + i * 10 + j] = (uint8_t)(i == j ? 10 : 20 + i + j);
	hdr(slit, "SLIT", 44 + 100);
	CHECK(numa_parse_slit(slit, 144, &n, &why) == -1 && strstr(why, "beyond"),
	      "domain 0x105 is beyond 10 localities: %s", why ? why : "");
	n.domain[1] = 5;
	CHECK(numa_parse_slit(slit, 144, &n, &why) == 0, "parse: %s", why ? why : "");
	CHECK(n.distance[0][0] == 10 && n.distance[0][1] == 25 && n.distance[2][0] == 29 &&
	      n.distance[1][2] == 34, "distances mapped through domains");
	CHECK(numa_parse_slit(slit, 100, &n, &why) == -1, "length mismatch");
}

static void test_malformed(void)
{
	struct numa_info n;
	const char *why;
	size_t len = build();

	CHECK(numa_parse_srat(srat, len - 1, &n, &why) == -1, "length mismatch");
	srat[48 + 1] = 200;
	CHECK(numa_parse_srat(srat, len, &n, &why) == -1 && strstr(why, "past"),
	      "entry past the end: %s", why ? why : "");
	build();
	srat[48 + 1] = 0;
	CHECK(numa_parse_srat(srat, len, &n, &why) == -1, "zero-length entry");
	memset(srat + 48, 0, 16);
	hdr(srat, "SRAT", 48);
	CHECK(numa_parse_srat(srat, 48, &n, &why) == -1 && strstr(why, "no enabled"),
	      "empty SRAT");
}

static size_t hostile_base(void)
{
	size_t off = 48;

	memset(srat, 0, sizeof(srat));
	off = cpu(off, 0, 1);
	off = mem(off, 0, 0x100000, 0x3ff00000, 1);
	return off;
}

static void test_overlap(void)
{
	struct numa_info n;
	const char *why;
	size_t off = hostile_base();

	off = mem(off, 1, 0x20000000, 0x40000000, 1);	/* inside node 0's range */
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == -1 && why &&
	      strstr(why, "overlap") && n.why_value == 0x20000000,
	      "two domains overlapping refused, base named: %s", why ? why : "accepted");
	off = hostile_base();
	off = mem(off, 0, 0x20000000, 0x1000, 1);	/* same domain: ignored with a note */
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == 0 && n.nr_notes == 1 &&
	      n.bytes[0] == 0x3ff00000, "same-domain overlap noted, counted once");
}

static void test_wrap(void)
{
	struct numa_info n;
	const char *why;
	size_t off = hostile_base();

	off = mem(off, 1, 0xfffffffffff00000ULL, 0x300000, 1);
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == 0, "parses");
	CHECK(n.nr_nodes == 1 && n.nr_ranges == 1 && n.nr_notes == 1 &&
	      n.note[0].value == 0xfffffffffff00000ULL && strstr(n.note[0].what, "wraps"),
	      "wrapping range ignored and named: %u nodes, %u ranges", n.nr_nodes, n.nr_ranges);
}

static void test_too_many_domains(void)
{
	struct numa_info n;
	const char *why;
	size_t off = 48;

	memset(srat, 0, sizeof(srat));
	for (uint32_t d = 0; d < NUMA_MAX_NODES + 1; d++)
		off = mem(off, d, 0x100000000ULL * (d + 1), 0x1000000, 1);
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == -1 && why &&
	      strstr(why, "proximity domains") && n.why_value == NUMA_MAX_NODES,
	      "a 9th domain refuses the SRAT, naming it: %s", why ? why : "accepted");
}

static void test_many_ranges(void)
{
	struct numa_info n;
	const char *why;
	size_t off = 48;

	memset(srat, 0, sizeof(srat));
	/* 40 adjacent ranges of one node merge into one; 70 separate ones are clipped. */
	for (int i = 0; i < 40; i++)
		off = mem(off, 0, 0x100000000ULL + i * 0x100000ULL, 0x100000, 1);
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == 0 &&
	      n.nr_ranges == 1 && n.bytes[0] == 40 * 0x100000ULL, "adjacent ranges merge");
	off = 48;
	for (int i = 0; i < 70; i++)
		off = mem(off, (uint32_t)i & 1, 0x100000000ULL + i * 0x200000ULL, 0x100000, 1);
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == 0 &&
	      n.nr_nodes == 2 && n.nr_ranges == NUMA_MAX_RANGES && n.nr_notes == 4,
	      "70 ranges: SRAT kept, clipped with notes: %s", why ? why : "ok");
}

static void test_bad_slit(void)
{
	struct numa_info n;
	const char *why;
	uint64_t loc = 2;
	size_t off = hostile_base();

	off = mem(off, 1, 0x40000000, 0x40000000, 1);
	CHECK(numa_parse_srat(srat, hdr(srat, "SRAT", off), &n, &why) == 0, "two nodes");
	memset(slit, 0, sizeof(slit));
	memcpy(slit + 36, &loc, 8);
	hdr(slit, "SLIT", 48);
	CHECK(numa_parse_slit(slit, 48, &n, &why) == -1 && !n.have_slit && why &&
	      strstr(why, "local distance") && n.why_value == 0, "all-zero SLIT refused");
	slit[44] = 10, slit[45] = 5, slit[46] = 20, slit[47] = 10;
	CHECK(numa_parse_slit(slit, 48, &n, &why) == -1 && n.why_value == 5,
	      "remote distance 5 refused");
	slit[45] = 30;
	CHECK(numa_parse_slit(slit, 48, &n, &why) == 0 && n.have_slit && n.nr_notes == 1 &&
	      n.distance[0][1] == 30 && n.distance[1][0] == 20, "asymmetric kept with a note");
}

/* Node ranges kept to the RAM of the memory map: holes cut out, a range in no RAM dropped. */
static void test_clip_to_ram(void)
{
	static const u64 ram[][2] = { { 0, 0xa0000 }, { 0x100000, 0x80000000 },
				      { 0x100000000ULL, 0x180000000ULL } };
	struct numa_info n;

	memset(&n, 0, sizeof(n));
	n.nr_nodes = 2;
	n.range[0] = (struct numa_range){ 0, 0x100000000ULL, 0, false, false };
	n.range[1] = (struct numa_range){ 0x100000000ULL, 0x200000000ULL, 1, false, false };
	n.range[2] = (struct numa_range){ 0x300000000ULL, 0x340000000ULL, 1, false, false };
	n.nr_ranges = 3;
	numa_clip_to_ram(&n, ram, 3);
	CHECK(n.nr_ranges == 3, "pieces: %u", n.nr_ranges);
	CHECK(n.range[0].end == 0xa0000 && n.range[1].start == 0x100000 &&
	      n.range[1].end == 0x80000000 && n.range[1].node == 0, "node 0 around the holes");
	CHECK(n.range[2].start == 0x100000000ULL && n.range[2].end == 0x180000000ULL,
	      "node 1 to the end of RAM");
	CHECK(n.bytes[0] == 0xa0000 + 0x80000000 - 0x100000 && n.bytes[1] == 0x80000000,
	      "bytes recounted: %llx %llx", (unsigned long long)n.bytes[0],
	      (unsigned long long)n.bytes[1]);
	CHECK(n.nr_notes == 1 && strstr(n.note[0].what, "no RAM") &&
	      n.note[0].value == 0x300000000ULL, "the range in no RAM is named");
	CHECK(numa_node_of(&n, 0xb0000) == -1, "the VGA hole is in no node");
}

int main(void)
{
	return RUN_TESTS(test_srat, test_slit, test_malformed, test_overlap, test_wrap,
			 test_clip_to_ram,
			 test_too_many_domains, test_many_ranges, test_bad_slit);
}
