// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_smbios.c - the SMBIOS DIMM map (kernel/platform/smbios.c).
 *
 * Oracles: tables QEMU 7.2 and OVMF built (tests/host/smbios_qemu_tables.h), whose contents
 * are known from the QEMU command line and from OVMF's own decoder (smbiosview printed the
 * devices, sizes, locators and type 20 ranges given below); DSP0134's own examples for the
 * size field (0x8100 is 256 KiB, 0x0100 is 256 MiB); and crafted tables for what must be
 * refused or skipped, each with the rule it breaks.
 *
 * - QEMU's plain tables have type 17 and 19 and no type 20: every lookup is "no DIMM map
 *   from firmware", also with a single DIMM;
 * - with the structures of tools/mk-smbios-dimms.py, addresses map to their DIMMs, an
 *   interleaved range to both devices, an address outside every range to none;
 * - the 2.x entry point rebuilt from smbiosview's fields has the checksums OVMF printed;
 * - bad tables are refused with their message (lengths past the end, unterminated strings,
 *   duplicate handles, too many structures); bad structures are skipped with a note.
 */
#include "kernel/platform/smbios.h"
#include "tests/host/host_test.h"
#include "tests/host/smbios_qemu_tables.h"

#define MiB	(1ULL << 20)
#define GiB	(1ULL << 30)

static struct smbios_dimms dimms;

static int parse(const void *p, size_t len)
{
	const char *why = NULL;
	u64 v = 0;
	int ret = smbios_parse(p, len, &dimms, &why, &v);

	CHECK(ret == 0, "refused: %s 0x%llx", why ? why : "?", (unsigned long long)v);
	return ret;
}

static enum smbios_where where(u64 pa, u16 *idx, unsigned int *n)
{
	return smbios_dimm_of(&dimms, pa, idx, 4, n);
}

static void test_qemu_tables_have_no_dimm_map(void)
{
	u16 idx[4];
	unsigned int n;

	if (parse(qemu_1g, sizeof(qemu_1g)))
		return;
	/* smbiosview: one type 17, handle 0x1100, Size 1024 (MB), "DIMM 0", no bank */
	CHECK(dimms.nr_devices == 1 && dimms.devices[0].handle == 0x1100 &&
	      dimms.devices[0].size_kind == SMBIOS_SIZE_KNOWN && dimms.devices[0].size == 1 * GiB &&
	      !strcmp(dimms.devices[0].locator, "DIMM 0") && !dimms.devices[0].bank[0] &&
	      dimms.devices[0].array == 0x1000, "device: %u", dimms.nr_devices);
	CHECK(dimms.nr_arrays == 1 && dimms.arrays[0].start == 0 &&
	      dimms.arrays[0].end == 1 * GiB && dimms.arrays[0].handle == 0x1300,
	      "type 19: %u", dimms.nr_arrays);
	CHECK(dimms.nr_maps == 0 && dimms.nr_structs == 9 && dimms.nr_notes == 0,
	      "maps %u structs %u notes %u", dimms.nr_maps, dimms.nr_structs, dimms.nr_notes);
	CHECK(where(0x1000, idx, &n) == SMBIOS_NO_MAP && n == 0, "one DIMM was guessed");
	CHECK(!strcmp(smbios_where_text(SMBIOS_NO_MAP), "no DIMM map from firmware"), "text");

	if (parse(qemu_4g_2node, sizeof(qemu_4g_2node)))
		return;
	/* -m 4G on q35: 2 GiB below 4 GiB and 2 GiB above; one 4096 MB device */
	CHECK(dimms.nr_devices == 1 && dimms.devices[0].size == 4 * GiB, "4G device");
	CHECK(dimms.nr_arrays == 2 && dimms.arrays[0].end == 2 * GiB &&
	      dimms.arrays[1].start == 4 * GiB && dimms.arrays[1].end == 6 * GiB, "4G arrays");
	CHECK(where(5 * GiB, idx, &n) == SMBIOS_NO_MAP, "4G: a DIMM was guessed");
}

static void test_dimm_map_from_the_tool(void)
{
	u16 idx[4];
	unsigned int n;
	char name[64];

	if (parse(qemu_1g_two_dimms, sizeof(qemu_1g_two_dimms)))
		return;
	CHECK(dimms.nr_devices == 2 && dimms.nr_maps == 2, "devices %u maps %u",
	      dimms.nr_devices, dimms.nr_maps);
	CHECK(where(0x1000, idx, &n) == SMBIOS_ONE_DIMM && n == 1, "0x1000: %u", n);
	smbios_dimm_name(&dimms, idx[0], name, sizeof(name));
	CHECK(!strcmp(name, "P0_CHANNEL_A/DIMM_A0"), "0x1000 in %s", name);
	CHECK(where(512 * MiB - 1, idx, &n) == SMBIOS_ONE_DIMM &&
	      !strcmp(dimms.devices[idx[0]].locator, "DIMM_A0"), "last byte of A0");
	CHECK(where(512 * MiB, idx, &n) == SMBIOS_ONE_DIMM &&
	      !strcmp(dimms.devices[idx[0]].locator, "DIMM_B0") &&
	      !strcmp(dimms.devices[idx[0]].bank, "P0_CHANNEL_B"), "first byte of B0");
	CHECK(where(1 * GiB, idx, &n) == SMBIOS_UNMAPPED && n == 0, "1 GiB is past both");
	CHECK(dimms.devices[0].size == 512 * MiB && dimms.devices[1].size == 512 * MiB, "sizes");

	if (parse(qemu_4g_interleaved, sizeof(qemu_4g_interleaved)))
		return;
	/* smbiosview: 0x0-0x1FFFFF KB on 0x1100 (position 1) and 0x1101 (2); 4-6 GiB 0x1102 */
	CHECK(where(1 * GiB, idx, &n) == SMBIOS_INTERLEAVED && n == 2 &&
	      dimms.devices[idx[0]].handle == 0x1100 && dimms.devices[idx[1]].handle == 0x1101,
	      "interleaved: %u devices", n);
	CHECK(dimms.maps[0].interleave_pos == 1 && dimms.maps[1].interleave_pos == 2 &&
	      dimms.maps[0].depth == 1, "interleave positions");
	CHECK(where(5 * GiB, idx, &n) == SMBIOS_ONE_DIMM &&
	      !strcmp(dimms.devices[idx[0]].locator, "DIMM_A1"), "5 GiB");
	CHECK(where(3 * GiB, idx, &n) == SMBIOS_UNMAPPED, "the hole below 4 GiB");
	CHECK(where(6 * GiB, idx, &n) == SMBIOS_UNMAPPED, "past the end");
}

/* ---- a table builder for crafted cases ---------------------------------------------- */

static u8 tab[65536];
static size_t tlen;

static void put(const void *p, size_t n)
{
	memcpy(tab + tlen, p, n);
	tlen += n;
}

static void put_le(u64 v, int n)
{
	for (int i = 0; i < n; i++)
		tab[tlen++] = (u8)(v >> (8 * i));
}

/* A header, then the caller puts @len - 4 bytes and strings. */
static void hdr(u8 type, u8 len, u16 handle)
{
	put_le(type, 1);
	put_le(len, 1);
	put_le(handle, 2);
}

static void t17(u16 handle, u16 size, u32 ext, const char *loc, const char *bank, u8 len)
{
	size_t at = tlen;

	hdr(17, len, handle);
	put_le(0x1000, 2);			/* array */
	put_le(0xfffe, 2);
	put_le(0xffff, 4);			/* widths */
	put_le(size, 2);
	put_le(0x09, 1);
	put_le(0, 1);
	put_le(loc ? 1 : 0, 1);
	put_le(bank ? 2 : 0, 1);
	while (tlen < at + 0x1c && tlen < at + len)
		put_le(0, 1);
	if (len >= 0x20) {
		put_le(ext, 4);
		while (tlen < at + len)
			put_le(0, 1);
	}
	if (loc)
		put(loc, strlen(loc) + 1);
	if (bank)
		put(bank, strlen(bank) + 1);
	put("\0\0", loc || bank ? 1 : 2);
}

static void t20(u16 handle, u16 device, u64 start, u64 end_incl, bool ext, u8 len)
{
	size_t at = tlen;

	hdr(20, len, handle);
	put_le(ext ? 0xffffffffU : start >> 10, 4);
	put_le(ext ? 0xffffffffU : end_incl >> 10, 4);
	put_le(device, 2);
	put_le(0x1300, 2);
	put_le(0xff, 1);
	put_le(0, 2);
	if (len >= 0x23) {
		put_le(ext ? start : 0, 8);
		put_le(ext ? end_incl : 0, 8);
	}
	while (tlen < at + len)
		put_le(0, 1);
	put("\0\0", 2);
}

static void end_table(void)
{
	hdr(127, 4, 0xfeff);
	put("\0\0", 2);
}

static void test_sizes_and_extended_addresses(void)
{
	u16 idx[4];
	unsigned int n;

	tlen = 0;
	t17(0x10, 0x8100, 0, "A", NULL, 0x28);		/* DSP0134: 256 KB */
	t17(0x11, 0x0100, 0, "B", "BANK 1", 0x28);	/* DSP0134: 256 MB */
	t17(0x12, 0x7fff, 64 * 1024, "C", NULL, 0x28);	/* extended: 64 GiB */
	t17(0x13, 0, 0, "D", NULL, 0x28);		/* empty socket */
	t17(0x14, 0xffff, 0, "E", NULL, 0x28);		/* unknown */
	t17(0x15, 0x7fff, 0, "F", NULL, 0x1b);		/* extended, but no room for it */
	t20(0x20, 0x12, 5ULL << 40, (6ULL << 40) - 1, true, 0x23);	/* 5..6 TiB */
	end_table();
	put("garbage after the end", 21);
	if (parse(tab, tlen))
		return;
	CHECK(dimms.nr_devices == 6, "%u devices", dimms.nr_devices);
	CHECK(dimms.devices[0].size == 256 * 1024 && dimms.devices[1].size == 256 * MiB &&
	      dimms.devices[2].size == 64 * GiB, "sizes %llu %llu %llu",
	      (unsigned long long)dimms.devices[0].size, (unsigned long long)dimms.devices[1].size,
	      (unsigned long long)dimms.devices[2].size);
	CHECK(dimms.devices[3].size_kind == SMBIOS_SIZE_EMPTY &&
	      dimms.devices[4].size_kind == SMBIOS_SIZE_UNKNOWN &&
	      dimms.devices[5].size_kind == SMBIOS_SIZE_UNKNOWN, "empty/unknown");
	CHECK(!strcmp(dimms.devices[1].bank, "BANK 1"), "bank %s", dimms.devices[1].bank);
	CHECK(where((5ULL << 40) + 7, idx, &n) == SMBIOS_ONE_DIMM && idx[0] == 2,
	      "extended range");
	CHECK(where(6ULL << 40, idx, &n) == SMBIOS_UNMAPPED, "extended end is the last byte");
	CHECK(dimms.nr_structs == 8, "structs %u (the end structure counts)", dimms.nr_structs);
}

static void test_bad_structures_are_skipped(void)
{
	u16 idx[4];
	unsigned int n;

	tlen = 0;
	t17(0x10, 0x0100, 0, "A", NULL, 0x28);
	t17(0x11, 0x0100, 0, "short", NULL, 0x14);		/* under 2.1's 0x15 */
	t20(0x20, 0x99, 0, 1 * MiB - 1, false, 0x13);		/* names no device */
	t20(0x21, 0x10, 2 * MiB, 1 * MiB, false, 0x13);		/* ends before it starts */
	t20(0x22, 0x10, 8 * MiB, 9 * MiB - 1, true, 0x13);	/* extended, too short */
	t20(0x23, 0x10, 16 * MiB, 17 * MiB - 1, false, 0x13);	/* fine */
	/* a type 17 whose locator is string 3 of 1 */
	hdr(17, 0x15, 0x12);
	put_le(0, 8);
	put_le(0x0100, 2);
	put_le(0, 2);
	put_le(3, 1);
	put_le(0, 4);
	put("x\0\0", 3);
	end_table();
	if (parse(tab, tlen))
		return;
	CHECK(dimms.nr_devices == 2 && dimms.nr_maps == 1, "devices %u maps %u",
	      dimms.nr_devices, dimms.nr_maps);
	CHECK(dimms.nr_noted == 5 && dimms.nr_notes == SMBIOS_MAX_NOTES, "noted %u kept %u",
	      dimms.nr_noted, dimms.nr_notes);
	CHECK(dimms.note[0].value == 0x11 && strstr(dimms.note[0].what, "too short"),
	      "note 0: %s 0x%llx", dimms.note[0].what, (unsigned long long)dimms.note[0].value);
	CHECK(!strcmp(dimms.devices[1].locator, "handle 0x0012"), "missing locator named %s",
	      dimms.devices[1].locator);
	CHECK(where(16 * MiB, idx, &n) == SMBIOS_ONE_DIMM && where(0, idx, &n) == SMBIOS_UNMAPPED,
	      "what is left");
}

/* Type 2 (DSP0134 7.3): Manufacturer is string 1 at offset 4, Product string 2 at 5. */
static void test_baseboard(void)
{
	tlen = 0;
	hdr(2, 0x08, 0x30);
	put_le(1, 1);
	put_le(2, 1);
	put_le(0, 2);
	put("Supermicro\0H13SSL-N\0\0", 21);
	hdr(2, 0x08, 0x31);				/* a second board: not taken */
	put_le(1, 1);
	put_le(1, 1);
	put_le(0, 2);
	put("Other\0\0", 7);
	end_table();
	if (parse(tab, tlen))
		return;
	CHECK(dimms.have_board && !strcmp(dimms.board_vendor, "Supermicro") &&
	      !strcmp(dimms.board_product, "H13SSL-N"), "board %s / %s", dimms.board_vendor,
	      dimms.board_product);
	tlen = 0;
	hdr(2, 0x07, 0x30);				/* too short */
	put("\0\0\0\0\0", 5);
	hdr(2, 0x08, 0x31);				/* product is string 3 of 1 */
	put_le(1, 1);
	put_le(3, 1);
	put_le(0, 2);
	put("V\0\0", 3);
	end_table();
	if (parse(tab, tlen))
		return;
	CHECK(!dimms.have_board && dimms.nr_noted == 2, "no board taken, %u notes",
	      dimms.nr_noted);
	if (parse(qemu_1g, sizeof(qemu_1g)))
		return;
	CHECK(!dimms.have_board, "QEMU's plain tables have no type 2");
}

static void test_bad_tables_are_refused(void)
{
	static const struct {
		const char *what;
		const char *why;
	} cases[] = {
		{ "header cut", "SMBIOS: a structure header runs past the table's end (offset)" },
		{ "length 3", "SMBIOS: a structure's length is under 4 (offset)" },
		{ "formatted past end",
		  "SMBIOS: a structure's formatted area runs past the table's end (offset)" },
		{ "string runs off",
		  "SMBIOS: a structure's strings do not end inside the table (offset)" },
		{ "set unterminated",
		  "SMBIOS: a structure's string set is not terminated (offset)" },
		{ "same handle", "SMBIOS: two structures have one handle (handle)" },
		{ "too many",
		  "SMBIOS: more structures than a table can sensibly hold (limit)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *why = NULL;
		u64 v = 0;

		tlen = 0;
		t17(0x10, 0x0100, 0, "A", NULL, 0x28);
		switch (i) {
		case 0:
			put("\x11\x28", 2);
			break;
		case 1:
			hdr(1, 3, 0x50);
			put("\0\0", 2);
			break;
		case 2:
			hdr(17, 0x28, 0x50);
			put_le(0, 8);
			break;
		case 3:
			hdr(1, 4, 0x50);
			put("no NUL", 6);
			break;
		case 4:
			hdr(1, 4, 0x50);
			put("one\0", 4);
			break;
		case 5:
			t17(0x10, 0x0100, 0, "again", NULL, 0x28);
			break;
		default:
			for (u32 k = 0; k < SMBIOS_MAX_STRUCTS; k++) {
				hdr(1, 4, (u16)(0x100 + k));
				put("\0\0", 2);
			}
			break;
		}
		CHECK(smbios_parse(tab, tlen, &dimms, &why, &v) == -1 && why &&
		      !strcmp(why, cases[i].why), "%s: %s", cases[i].what, why ? why : "accepted");
		if (i == 5)
			CHECK(v == 0x10, "duplicate handle reported as 0x%llx",
			      (unsigned long long)v);
		else if (i < 5)
			CHECK(v == 0x2b, "%s at offset 0x%llx", cases[i].what,
			      (unsigned long long)v);
	}
	CHECK(smbios_parse(tab, 0, &dimms, &(const char *){ NULL }, &(u64){ 0 }) == 0 &&
	      dimms.nr_structs == 0, "an empty table");
}

/* The 2.x entry point of the 1 GiB run, from the fields smbiosview -s printed. */
static void test_entry_points(void)
{
	u8 ep[31] = "_SM_", ep3[24] = "_SM3_", sum = 0;
	struct smbios_entry e;
	const char *why = NULL;

	ep[5] = 31;
	ep[6] = 2;
	ep[7] = 8;
	ep[8] = 75;			/* max structure size */
	memcpy(ep + 0x10, "_DMI_", 5);
	ep[0x16] = 383 & 0xff;
	ep[0x17] = 383 >> 8;
	ep[0x18] = 0x00;
	ep[0x19] = 0x70;
	ep[0x1a] = 0x51;
	ep[0x1b] = 0x3f;		/* 0x3f517000 */
	ep[0x1c] = 9;
	ep[0x1e] = 0x28;
	for (int i = 0x10; i < 0x1f; i++)
		sum = (u8)(sum + ep[i]);
	ep[0x15] = (u8)-sum;
	sum = 0;
	for (int i = 0; i < 31; i++)
		sum = (u8)(sum + ep[i]);
	ep[4] = (u8)-sum;
	CHECK(ep[4] == 0x2e && ep[0x15] == 0xb7, "checksums 0x%02x 0x%02x, OVMF said 0x2e 0xb7",
	      ep[4], ep[0x15]);
	CHECK(smbios_parse_entry(ep, sizeof(ep), &e, &why) == 0 && !e.v3 && e.major == 2 &&
	      e.minor == 8 && e.table_addr == 0x3f517000 && e.table_len == 383 &&
	      e.nr_structs == 9, "2.8 entry point: %s", why ? why : "fields");
	ep[0x16]++;
	CHECK(smbios_parse_entry(ep, sizeof(ep), &e, &why) == -1 &&
	      !strcmp(why, "SMBIOS entry point: bad checksum"), "2.x checksum: %s", why);
	ep[4]--;
	CHECK(smbios_parse_entry(ep, sizeof(ep), &e, &why) == -1 && strstr(why, "_DMI_"),
	      "intermediate checksum: %s", why);
	CHECK(smbios_parse_entry(ep, 20, &e, &why) == -1, "a cut 2.x entry point");

	ep3[6] = 24;
	ep3[7] = 3;
	ep3[8] = 4;
	ep3[10] = 1;
	ep3[0x0c] = 0x00;
	ep3[0x0d] = 0x10;		/* 4 KiB maximum */
	ep3[0x10] = 0x00;
	ep3[0x11] = 0xf0;
	ep3[0x14] = 0x01;		/* 0x1_0000_f000 */
	sum = 0;
	for (int i = 0; i < 24; i++)
		sum = (u8)(sum + ep3[i]);
	ep3[5] = (u8)-sum;
	CHECK(smbios_parse_entry(ep3, sizeof(ep3), &e, &why) == 0 && e.v3 && e.major == 3 &&
	      e.minor == 4 && e.table_len == 4096 && e.table_addr == 0x10000f000ULL, "3.x");
	ep3[6] = 30;
	CHECK(smbios_parse_entry(ep3, sizeof(ep3), &e, &why) == -1 && strstr(why, "length"),
	      "3.x length past the buffer: %s", why);
	CHECK(smbios_parse_entry("_XX_", 4, &e, &why) == -1 && strstr(why, "anchor"), "anchor");
}

int main(void)
{
	return RUN_TESTS(test_qemu_tables_have_no_dimm_map, test_dimm_map_from_the_tool,
			 test_baseboard,
			 test_sizes_and_extended_addresses, test_bad_structures_are_skipped,
			 test_bad_tables_are_refused, test_entry_points);
}
