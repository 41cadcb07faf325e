/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smbios.h - the DIMM map from SMBIOS (DMTF DSP0134): which memory device (type 17: locator,
 * bank locator, size) holds a physical address, through the memory device mapped address
 * ranges (type 20), with the array ranges (type 19) for the record. Plain C over a byte
 * range: boot/ finds the entry point (a UEFI configuration table), smbios_load.c reads it
 * within the firmware's memory map; these parse it and the structure table it points to.
 * Host-tested and fuzzed.
 *
 * An address maps to a DIMM only through a type 20 range. Without any (QEMU builds types 16,
 * 17 and 19 but no 20; so do many servers), every lookup says "no DIMM map from firmware":
 * one type 17 device is not taken to mean that it holds everything. Several type 20 ranges
 * holding one address (interleaving) give all their devices, never one of them.
 *
 * Refused as a whole (-1 and why): a structure header or formatted area past the table's
 * end, a formatted length under 4, a string set that does not end inside the table, more
 * than SMBIOS_MAX_STRUCTS structures, and one handle used by two structures (a type 20's
 * reference would be ambiguous). Skipped with a note: a type 17, 19 or 20 too short for
 * the fields used, a range that ends before it starts, a type 20 naming no type 17, a
 * string number with no string, devices or ranges beyond the limits.
 */
#ifndef CK_SMBIOS_H
#define CK_SMBIOS_H

#include "kernel/include/types.h"

#define SMBIOS_MAX_DEVICES	256
#define SMBIOS_MAX_MAPS		512
#define SMBIOS_MAX_ARRAYS	64
#define SMBIOS_MAX_STRUCTS	8192
#define SMBIOS_NAME_MAX		48
#define SMBIOS_MAX_NOTES	4

#define SMBIOS_TYPE_BASEBOARD		2
#define SMBIOS_TYPE_MEMORY_DEVICE	17
#define SMBIOS_TYPE_ARRAY_MAPPED	19
#define SMBIOS_TYPE_DEVICE_MAPPED	20
#define SMBIOS_TYPE_END			127

struct smbios_entry {
	bool v3;		/* "_SM3_" (64-bit) rather than "_SM_" */
	u8 major, minor;
	u64 table_addr;
	u32 table_len;		/* 2.x: the table's length; 3.x: its maximum size */
	u16 nr_structs;		/* 2.x only; 0 when not given */
};

/* Parse an entry point structure (@len readable bytes at @p). Returns 0, or -1 and @why. */
int smbios_parse_entry(const void *p, size_t len, struct smbios_entry *e, const char **why);

enum smbios_size_kind { SMBIOS_SIZE_KNOWN, SMBIOS_SIZE_EMPTY, SMBIOS_SIZE_UNKNOWN };

struct smbios_device {
	u16 handle;
	u16 array;			/* physical memory array handle (type 16) */
	enum smbios_size_kind size_kind;
	u64 size;			/* bytes, when known */
	char locator[SMBIOS_NAME_MAX];	/* "DIMM 0", "CPU0_DIMM_A1" */
	char bank[SMBIOS_NAME_MAX];	/* "P0 CHANNEL A", or "" */
};

struct smbios_range {
	u64 start, end;			/* [start, end) in bytes */
	u16 handle;			/* this structure's */
	u16 ref;			/* type 20: the device; type 19: the array */
	u16 device;			/* type 20: index in devices[] */
	u8 interleave_pos, depth;	/* type 20: 0 = not interleaved, 0xff unknown */
};

struct smbios_dimms {
	unsigned int nr_structs;
	unsigned int nr_devices, nr_maps, nr_arrays;
	struct smbios_device devices[SMBIOS_MAX_DEVICES];
	struct smbios_range maps[SMBIOS_MAX_MAPS];	/* type 20, table order */
	struct smbios_range arrays[SMBIOS_MAX_ARRAYS];	/* type 19 */
	/* notes kept, and notes made (beyond the kept ones too) */
	unsigned int nr_notes, nr_noted;
	struct smbios_note {
		const char *what;
		u64 value;
	} note[SMBIOS_MAX_NOTES];
	u8 handles_seen[65536 / 8];	/* the parser's: one bit per handle */
	/* The first type 2 (baseboard): what rasdaemon's labels are matched by. */
	bool have_board;
	char board_vendor[SMBIOS_NAME_MAX];	/* Manufacturer, "" when no string */
	char board_product[SMBIOS_NAME_MAX];	/* Product */
};

/*
 * Parse the structure table (@len bytes at @p) up to its end-of-table structure or its end.
 * Returns 0, or -1 with @why and @why_value (the offset, handle or count concerned).
 */
int smbios_parse(const void *p, size_t len, struct smbios_dimms *d, const char **why,
		 u64 *why_value);

enum smbios_where {
	SMBIOS_NO_MAP,		/* no type 20 range at all: "no DIMM map from firmware" */
	SMBIOS_UNMAPPED,	/* type 20 ranges exist, none holds the address */
	SMBIOS_ONE_DIMM,
	SMBIOS_INTERLEAVED,	/* several devices' ranges hold it: one of them */
};

/*
 * The devices whose type 20 ranges hold @pa: up to @max indexes into d->devices in @idx,
 * their number (possibly more than @max) in *@n.
 */
enum smbios_where smbios_dimm_of(const struct smbios_dimms *d, u64 pa, u16 *idx,
				 unsigned int max, unsigned int *n);
/* "P0 CHANNEL A/DIMM 0", or the locator alone without a bank locator. */
void smbios_dimm_name(const struct smbios_dimms *d, unsigned int idx, char *buf, size_t size);
/* The words for a lookup that found no single DIMM ("no DIMM map from firmware", ...). */
const char *smbios_where_text(enum smbios_where w);

/*
 * The firmware's table (smbios_load.c, plain C): @bi's SMBIOS 3 entry point first, then the
 * 2.x one (not when it names the table the first one's was refused over), each and the table
 * read only up to the end of their range of @bi's memory map or of the first MiB; the table
 * of the first usable one parsed into @d. Every line it has to say (what it found, one per
 * memory device, why it refused) goes to @say, @warn for a warning. True when @d holds a map.
 */
struct boot_info;
typedef void (*smbios_say_fn)(void *ctx, bool warn, const char *line);
bool smbios_load(const struct boot_info *bi, struct smbios_dimms *d, smbios_say_fn say,
		 void *ctx);

/*
 * The run's (image only, kernel/platform/smbios_fw.c): smbios_fw_init() loads the table once,
 * early in the run, and prints its lines; smbios_dimms_get() is the map it parsed, or NULL
 * when the firmware gave no usable table (the soak then attributes errors to a node and a
 * range).
 */
void smbios_fw_init(const struct boot_info *bi);
const struct smbios_dimms *smbios_dimms_get(void);

#endif
