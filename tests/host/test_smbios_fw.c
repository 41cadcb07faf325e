// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_smbios_fw.c - the firmware's SMBIOS table found through boot_info
 * (kernel/platform/smbios_load.c, what smbios_fw.c prints): which entry point is taken, what
 * is read of it and of its table, and the lines said, whole and in order.
 *
 * The entry points and tables are built here from DMTF DSP0134 (3.x): the 2.x entry point
 * ("_SM_", 0x1f bytes, checksummed, with the "_DMI_" intermediate anchor checksummed over its
 * 15 bytes, the table's 16-bit length at 0x16 and 32-bit address at 0x18), the 3.x one
 * ("_SM3_", 0x18 bytes, the table's maximum size at 0x0c and 64-bit address at 0x10), type 17
 * (locator and bank locator strings, size in MiB) and type 20 (start and end in KiB, the end
 * being the address of the last KiB, so a range's last byte is end * 1024 + 1023; or both
 * 0xffffffff and 64-bit byte addresses at 0x13 and 0x1b, the end being the last byte). The
 * expected lines are written from that, and the addresses are the test's own.
 *
 * They live in a 32-bit mapping (the 2.x entry point holds a 32-bit address) of eight pages,
 * given to boot_info's memory map as page 1 (entry points) and pages 3-6 (tables); pages 0
 * and 2 are in no range, page 7 is PROT_NONE: a read past a range's end would fault.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "kernel/include/boot_info.h"
#include "kernel/platform/smbios.h"
#include "tests/host/host_test.h"

#define PG		4096
#define ARENA_PAGES	8
#define EP_PAGE		1		/* range A: one page */
#define TAB_PAGE	3		/* range B: pages 3-6 */
#define TAB_PAGES	4
#define MAX_LINES	24

static u8 *arena;
static struct boot_info bi;
static struct smbios_dimms dimms;
static char lines[MAX_LINES][400];
static unsigned int nr_lines;

static void keep_line(void *ctx, bool warn, const char *line)
{
	(void)ctx;
	if (nr_lines < MAX_LINES)
		snprintf(lines[nr_lines], sizeof(lines[0]), "%s%s", warn ? "warning: " : "", line);
	nr_lines++;
}

static u64 at(unsigned int page, unsigned int off)
{
	return (u64)(uintptr_t)(arena + page * PG + off);
}

/* A fresh machine: the arena cleared, the map of ranges A and B, no entry point. */
static void machine(void)
{
	memset(arena, 0, (ARENA_PAGES - 1) * PG);
	memset(&bi, 0, sizeof(bi));
	bi.nr_mem = 2;
	bi.mem[0] = (struct mem_range){ at(EP_PAGE, 0), 1, MEM_RUNTIME_DATA, 6 };
	bi.mem[1] = (struct mem_range){ at(TAB_PAGE, 0), TAB_PAGES, MEM_RUNTIME_DATA, 6 };
	nr_lines = 0;
}

static bool load(void)
{
	return smbios_load(&bi, &dimms, keep_line, NULL);
}

/* The lines said, against @want (NULL-terminated); each difference is reported. */
static void said(const char *const *want)
{
	unsigned int n = 0;

	for (; want[n]; n++)
		CHECK(n < nr_lines && !strcmp(lines[n], want[n]), "line %u: '%s', want '%s'", n,
		      n < nr_lines ? lines[n] : "(none)", want[n]);
	CHECK(nr_lines == n, "%u lines, want %u; the first extra: '%s'", nr_lines, n,
	      nr_lines > n && n < MAX_LINES ? lines[n] : "");
}

static void put_le(u8 *p, u64 v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (u8)(v >> (8 * i));
}

static u8 sum(const u8 *p, unsigned int n)
{
	u8 s = 0;

	while (n--)
		s = (u8)(s + *p++);
	return s;
}

/* An SMBIOS 3.x entry point at @ep naming @max bytes at @table, where boot/ says it is. */
static void ep3(u64 ep, u64 table, u32 max)
{
	u8 *p = (u8 *)(uintptr_t)ep;

	bi.smbios3 = ep;
	bi.smbios3_len = 0x18;
	memcpy(p, "_SM3_", 5);
	p[6] = 0x18;
	p[7] = 3;			/* 3.4 */
	p[8] = 4;
	p[0x0a] = 1;			/* entry point revision */
	put_le(p + 0x0c, max, 4);
	put_le(p + 0x10, table, 8);
	p[5] = 0;
	p[5] = (u8)-sum(p, 0x18);
}

/* An SMBIOS 2.8 entry point at @ep naming @len bytes (@nr structures) at @table. */
static void ep2(u64 ep, u64 table, u16 len, u16 nr)
{
	u8 *p = (u8 *)(uintptr_t)ep;

	bi.smbios = ep;
	bi.smbios_len = 0x1f;
	memcpy(p, "_SM_", 4);
	p[5] = 0x1f;
	p[6] = 2;
	p[7] = 8;
	memcpy(p + 0x10, "_DMI_", 5);
	put_le(p + 0x16, len, 2);
	put_le(p + 0x18, table, 4);
	put_le(p + 0x1c, nr, 2);
	p[0x1e] = 0x28;
	p[4] = p[0x15] = 0;
	p[0x15] = (u8)-sum(p + 0x10, 15);
	p[4] = (u8)-sum(p, 0x1f);
}

/* ---- a structure table ---- */

static u8 *tp;

static void t17(u16 handle, u16 size_mib, const char *loc, const char *bank)
{
	u8 *p = tp;

	p[0] = 17;
	p[1] = 0x15;
	put_le(p + 2, handle, 2);
	put_le(p + 4, 0x1000, 2);	/* its array */
	put_le(p + 0x0c, size_mib, 2);
	p[0x10] = 1;
	p[0x11] = bank ? 2 : 0;
	tp += 0x15;
	tp = (u8 *)stpcpy((char *)tp, loc) + 1;
	if (bank)
		tp = (u8 *)stpcpy((char *)tp, bank) + 1;
	*tp++ = 0;
}

/* A type 20 range in KiB (@end_kib: the last KiB's address). */
static void t20(u16 handle, u16 device, u32 start_kib, u32 end_kib)
{
	u8 *p = tp;

	p[0] = 20;
	p[1] = 0x13;
	put_le(p + 2, handle, 2);
	put_le(p + 4, start_kib, 4);
	put_le(p + 8, end_kib, 4);
	put_le(p + 0x0c, device, 2);
	tp += 0x13 + 2;
}

/* A type 20 range in bytes, the extended form (@last: the last byte's address). */
static void t20_ext(u16 handle, u16 device, u64 start, u64 last)
{
	u8 *p = tp;

	p[0] = 20;
	p[1] = 0x23;
	put_le(p + 2, handle, 2);
	put_le(p + 4, 0xffffffffU, 4);
	put_le(p + 8, 0xffffffffU, 4);
	put_le(p + 0x0c, device, 2);
	put_le(p + 0x13, start, 8);
	put_le(p + 0x1b, last, 8);
	tp += 0x23 + 2;
}

/*
 * The table the cases use, at @table: two DIMMs, the first mapped at 0 - 512 MiB, the second
 * at five ranges (four shown, "and 1 more"), one of them extended. Returns its length.
 */
static u16 dimm_table(u64 table)
{
	tp = (u8 *)(uintptr_t)table;
	t17(0x1100, 512, "DIMM_A0", "P0_CHANNEL_A");
	t17(0x1101, 2048, "DIMM_B0", NULL);
	t20(0x1400, 0x1100, 0, 0x7ffff);			/* 0 .. 512 MiB - 1 */
	t20(0x1401, 0x1101, 0x80000, 0xfffff);			/* 512 MiB .. 1 GiB - 1 */
	t20(0x1402, 0x1101, 0x400000, 0x400000);		/* one KiB at 4 GiB */
	t20_ext(0x1403, 0x1101, 5ULL << 40, (6ULL << 40) - 1);	/* 5 .. 6 TiB */
	t20(0x1404, 0x1101, 0x500000, 0x5003ff);		/* 5 GiB .. + 1 MiB */
	t20(0x1405, 0x1101, 0x600000, 0x6003ff);
	tp[0] = 127;
	tp[1] = 4;
	put_le(tp + 2, 0xfeff, 2);
	tp += 4 + 2;
	return (u16)(tp - (u8 *)(uintptr_t)table);
}

/* The lines that report dimm_table() at @table, read as @len bytes, from a 3.4 or 2.8 entry. */
static void dimm_lines(char (*l)[400], bool v3, u64 table, u64 len)
{
	snprintf(l[0], 400, "SMBIOS: %s entry point (%s), structure table at 0x%llx, %llu bytes, "
		 "9 structures: 2 memory devices, 0 array ranges, 6 device ranges",
		 v3 ? "3.4" : "2.8", v3 ? "64-bit _SM3_" : "32-bit _SM_",
		 (unsigned long long)table, (unsigned long long)len);
	snprintf(l[1], 400, "SMBIOS: DIMM \"P0_CHANNEL_A/DIMM_A0\": 512 MiB, mapped at "
		 "0x0-0x1fffffff");
	snprintf(l[2], 400, "SMBIOS: DIMM \"DIMM_B0\": 2048 MiB, mapped at 0x20000000-0x3fffffff, "
		 "0x100000000-0x1000003ff, 0x50000000000-0x5ffffffffff, 0x140000000-0x1400fffff "
		 "and 1 more ranges");
	snprintf(l[3], 400, "SMBIOS: DIMM map from firmware: 6 device mapped address ranges "
		 "(type 20)");
}

static void test_no_entry_point(void)
{
	static const char *const want[] = {
		"SMBIOS: the firmware gave no SMBIOS table",
		"SMBIOS: no DIMM map from firmware: errors are attributed to a node and a range",
		NULL,
	};

	machine();
	CHECK(!load(), "no map");
	said(want);
}

/* SMBIOS 3 at the first byte of its range, its table at the first byte of its own. */
static void test_smbios3_at_range_start(void)
{
	char l[4][400];
	u64 table = at(TAB_PAGE, 0);
	u16 len;

	machine();
	len = dimm_table(table);
	ep3(at(EP_PAGE, 0), table, len);
	dimm_lines(l, true, table, len);
	CHECK(load() && dimms.nr_devices == 2 && dimms.nr_maps == 6, "the map: %u devices, %u "
	      "ranges", dimms.nr_devices, dimms.nr_maps);
	said((const char *const[]){ l[0], l[1], l[2], l[3], NULL });
}

/*
 * An entry point whose last byte is its range's last: read whole (SMBIOS 3 and 2.x); one
 * starting at the first byte past its range (page 2, in no range): outside, and the 2.x one
 * is taken instead.
 */
static void test_entry_at_range_end(void)
{
	char l[4][400], outside[200];
	u64 table = at(TAB_PAGE, 0);
	u16 len;

	machine();
	len = dimm_table(table);
	ep3(at(EP_PAGE, PG - 0x18), table, len);
	dimm_lines(l, true, table, len);
	CHECK(load(), "SMBIOS 3 ending at its range's end");
	said((const char *const[]){ l[0], l[1], l[2], l[3], NULL });

	machine();
	len = dimm_table(table);
	ep2(at(EP_PAGE, PG - 0x1f), table, len, 9);
	dimm_lines(l, false, table, len);
	CHECK(load(), "SMBIOS 2 ending at its range's end");
	said((const char *const[]){ l[0], l[1], l[2], l[3], NULL });

	machine();
	len = dimm_table(table);
	ep3(at(EP_PAGE + 1, 0), table, len);
	ep2(at(EP_PAGE, 0x40), table, len, 9);
	snprintf(outside, sizeof(outside), "warning: SMBIOS: the SMBIOS 3 entry point at 0x%llx "
		 "is outside the firmware's memory map, ignored",
		 (unsigned long long)bi.smbios3);
	CHECK(load(), "the 2.x entry point taken");
	said((const char *const[]){ outside, l[0], l[1], l[2], l[3], NULL });
}

/* A bad SMBIOS 3 entry point (its checksum): the 2.x one is taken. */
static void test_fallback_to_smbios2(void)
{
	char l[4][400], bad[200];
	u64 table = at(TAB_PAGE, 0);
	u16 len;

	machine();
	len = dimm_table(table);
	ep3(at(EP_PAGE, 0), table, len);
	arena[EP_PAGE * PG + 0x0c]++;
	ep2(at(EP_PAGE, 0x40), table, len, 9);
	dimm_lines(l, false, table, len);
	snprintf(bad, sizeof(bad), "warning: SMBIOS 3 entry point: bad checksum (at 0x%llx), "
		 "ignored", (unsigned long long)at(EP_PAGE, 0));
	CHECK(load(), "the 2.x entry point taken");
	said((const char *const[]){ bad, l[0], l[1], l[2], l[3], NULL });
}

/*
 * SMBIOS 3's table refused (a structure of length 3): a 2.x entry point naming the same table
 * is not read again, one naming another table is taken.
 */
static void test_refused_table(void)
{
	char l[4][400], refused[200];
	static const char nomap[] =
		"SMBIOS: no DIMM map from firmware: errors are attributed to a node and a range";
	u64 bad = at(TAB_PAGE, 0), good = at(TAB_PAGE + 1, 0);
	u16 len;

	machine();
	memcpy((void *)(uintptr_t)bad, "\x01\x03\x00\x01\x00\x00", 6);
	ep3(at(EP_PAGE, 0), bad, 6);
	ep2(at(EP_PAGE, 0x40), bad, 6, 1);
	snprintf(refused, sizeof(refused), "warning: SMBIOS: a structure's length is under 4 "
		 "(offset) 0x0: the structure table at 0x%llx is rejected",
		 (unsigned long long)bad);
	CHECK(!load(), "no map");
	said((const char *const[]){ refused, nomap, NULL });

	len = dimm_table(good);
	ep2(at(EP_PAGE, 0x40), good, len, 9);
	nr_lines = 0;
	dimm_lines(l, false, good, len);
	CHECK(load(), "the 2.x entry point's own table");
	said((const char *const[]){ refused, l[0], l[1], l[2], l[3], NULL });
}

/* A table whose stated size runs past its range into the unmapped page: read to the end. */
static void test_table_past_its_range(void)
{
	char l[4][400], past[200];
	u64 table = at(TAB_PAGE + TAB_PAGES - 1, 0x800);
	u16 len;

	machine();
	len = dimm_table(table);
	ep3(at(EP_PAGE, 0), table, 0x1000);
	dimm_lines(l, true, table, 0x800);
	snprintf(past, sizeof(past), "warning: SMBIOS: the structure table at 0x%llx runs 2048 "
		 "bytes past its memory map entry: read up to the entry's end",
		 (unsigned long long)table);
	CHECK(load() && len < 0x800, "read within its range (%u bytes of table)", len);
	said((const char *const[]){ past, l[0], l[1], l[2], l[3], NULL });
}

/*
 * Below 1 MiB (the legacy BIOS area, in no range of the map) an entry point is read up to
 * 1 MiB: one whose last byte is 0xfffff is taken, one 8 bytes later is cut to 16 bytes, too
 * short for either anchor's layout. Needs the page below 1 MiB mapped in this process.
 */
static void test_legacy_area(void)
{
	u8 *low = mmap((void *)0xff000, PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	char l[4][400], cut[200];
	u64 table = at(TAB_PAGE, 0);
	u16 len;

	if (low != (u8 *)0xff000) {
		SKIP("cannot map the page below 1 MiB here");
		if (low != MAP_FAILED)
			munmap(low, PG);
		return;
	}
	machine();
	len = dimm_table(table);
	ep3(0xfffe8, table, len);
	dimm_lines(l, true, table, len);
	CHECK(load(), "an entry point ending at 1 MiB");
	said((const char *const[]){ l[0], l[1], l[2], l[3], NULL });

	machine();
	len = dimm_table(table);
	memset(low, 0, PG);
	ep3(at(0, 0), table, len);	/* built in page 0, its first 16 bytes put below 1 MiB */
	memcpy(low + PG - 16, arena, 16);
	bi.smbios3 = 0xffff0;
	snprintf(cut, sizeof(cut), "warning: no SMBIOS entry point anchor (_SM_ or _SM3_) "
		 "(at 0xffff0), ignored");
	CHECK(!load(), "no map");
	said((const char *const[]){ cut, "SMBIOS: no DIMM map from firmware: errors are "
				    "attributed to a node and a range", NULL });
	munmap(low, PG);
}

int main(void)
{
	arena = mmap(NULL, ARENA_PAGES * PG, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (arena == MAP_FAILED || mprotect(arena + (ARENA_PAGES - 1) * PG, PG, PROT_NONE)) {
		perror("mmap");
		return 2;
	}
	return RUN_TESTS(test_no_entry_point, test_smbios3_at_range_start,
			 test_entry_at_range_end, test_fallback_to_smbios2, test_refused_table,
			 test_table_past_its_range, test_legacy_area);
}
