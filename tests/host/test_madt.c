// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_madt.c - MADT parsing on crafted tables: local APIC and x2APIC entries, enabled and
 * online-capable flags, more than 255 CPUs with x2APIC IDs, the address override, duplicate
 * IDs, and malformed tables.
 */
#include <stdint.h>

#include "kernel/platform/madt.h"
#include "tests/host/host_test.h"

static unsigned char t[65536];
static size_t off;

static void start(void)
{
	uint32_t lapic = 0xfee00000, flags = 1;

	memset(t, 0, sizeof(t));
	memcpy(t, "APIC", 4);
	memcpy(t + 36, &lapic, 4);
	memcpy(t + 40, &flags, 4);
	off = 44;
}

static size_t finish(void)
{
	uint32_t len = (uint32_t)off;

	memcpy(t + 4, &len, 4);
	return off;
}

static void lapic(uint8_t uid, uint8_t id, uint32_t flags)
{
	t[off] = 0;
	t[off + 1] = 8;
	t[off + 2] = uid;
	t[off + 3] = id;
	memcpy(t + off + 4, &flags, 4);
	off += 8;
}

static void x2apic(uint32_t id, uint32_t uid, uint32_t flags)
{
	memset(t + off, 0, 16);
	t[off] = 9;
	t[off + 1] = 16;
	memcpy(t + off + 4, &id, 4);
	memcpy(t + off + 8, &flags, 4);
	memcpy(t + off + 12, &uid, 4);
	off += 16;
}

static void override(uint64_t a)
{
	memset(t + off, 0, 12);
	t[off] = 5;
	t[off + 1] = 12;
	memcpy(t + off + 4, &a, 8);
	off += 12;
}

static struct madt_info m;

static void test_small(void)
{
	const char *why;

	start();
	lapic(0, 0, 1);
	lapic(1, 2, 1);
	lapic(2, 4, 2);		/* online-capable: counted, not enabled */
	lapic(3, 6, 0);		/* neither: skipped */
	lapic(4, 0xff, 1);	/* invalid ID: skipped */
	CHECK(madt_parse(t, finish(), &m, &why) == 0, "parse: %s", why ? why : "");
	CHECK(m.nr_cpus == 3 && m.nr_enabled == 2 && m.lapic_addr == 0xfee00000 && m.flags == 1,
	      "3 CPUs, 2 enabled: %u %u", m.nr_cpus, m.nr_enabled);
	CHECK(m.nr_unusable == 1, "the entry with neither flag counted as unusable: %u",
	      m.nr_unusable);
	CHECK(m.cpu[1].apic_id == 2 && m.cpu[1].uid == 1 && !m.cpu[2].enabled && !m.cpu[0].x2apic,
	      "fields");
}

static void test_many_x2apic(void)
{
	const char *why;

	start();
	for (unsigned int i = 0; i < 255; i++)
		lapic((uint8_t)i, (uint8_t)i, 1);
	for (uint32_t i = 255; i < 600; i++)
		x2apic(i, i, 1);
	x2apic(0x10, 0x10, 1);		/* below 0xff beside local APIC entries: ignored */
	x2apic(0xffffffff, 1, 1);	/* invalid */
	x2apic(300, 1, 1);		/* duplicate */
	CHECK(madt_parse(t, finish(), &m, &why) == 0, "parse: %s", why ? why : "");
	CHECK(m.nr_cpus == 600 && m.nr_enabled == 600, "600 CPUs: %u", m.nr_cpus);
	CHECK(m.cpu[599].apic_id == 599 && m.cpu[599].x2apic, "x2APIC IDs kept");
	CHECK(m.nr_notes == 2 && m.note[0].value == 0x10 && m.note[1].value == 300,
	      "ignored entries named: %u", m.nr_notes);
	start();
	for (uint32_t i = 0; i < MADT_MAX_CPUS + 5; i++)
		x2apic(i * 2, i, 1);
	CHECK(madt_parse(t, finish(), &m, &why) == 0 && m.nr_cpus == MADT_MAX_CPUS &&
	      m.nr_notes == MADT_MAX_NOTES, "clipped at %d, named", MADT_MAX_CPUS);
}

static void test_override(void)
{
	const char *why;

	start();
	lapic(0, 0, 1);
	override(0xfee00123);
	override(0x1fee00000ULL);
	override(0x2fee00000ULL);
	CHECK(madt_parse(t, finish(), &m, &why) == 0 && m.lapic_addr == 0x1fee00000ULL &&
	      m.nr_notes == 2 && m.note[0].value == 0xfee00123, "first valid override wins");
}

static void test_malformed(void)
{
	const char *why;
	size_t len;

	start();
	lapic(0, 0, 1);
	len = finish();
	CHECK(madt_parse(t, len - 1, &m, &why) == -1, "length mismatch");
	t[44 + 1] = 200;
	CHECK(madt_parse(t, len, &m, &why) == -1 && strstr(why, "past") && m.why_value == 200,
	      "entry past the end");
	t[44 + 1] = 0;
	CHECK(madt_parse(t, len, &m, &why) == -1, "zero-length entry");
	start();
	lapic(0, 0, 2);
	CHECK(madt_parse(t, finish(), &m, &why) == -1 && strstr(why, "no enabled"),
	      "no enabled CPU");
	CHECK(madt_parse(t, 20, &m, &why) == -1, "shorter than the header");
}

int main(void)
{
	return RUN_TESTS(test_small, test_many_x2apic, test_override, test_malformed);
}
