/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * einj.h - ACPI EINJ (error injection) tables: parse them, and run the injection sequence
 * for a memory error at an address (ACPI 6.x section 18.6), over an abstract register space
 * so that the host tests can stand in for the firmware.
 *
 * Sequence: BEGIN_INJECTION_OPERATION; the error type and address through the
 * SET_ERROR_TYPE_WITH_ADDRESS parameter block (ACPI 5.0+), or SET_ERROR_TYPE on older
 * firmware, which cannot aim at an address and is refused here; EXECUTE_OPERATION; poll
 * CHECK_BUSY_STATUS; GET_COMMAND_STATUS must read 0; GET_TRIGGER_ERROR_ACTION_TABLE and run
 * that table when it has entries; END_OPERATION.
 */
#ifndef CK_MCE_EINJ_H
#define CK_MCE_EINJ_H

#include "kernel/include/types.h"

enum einj_action {
	EINJ_BEGIN_OPERATION = 0,
	EINJ_GET_TRIGGER_TABLE = 1,
	EINJ_SET_ERROR_TYPE = 2,
	EINJ_GET_ERROR_TYPE = 3,
	EINJ_END_OPERATION = 4,
	EINJ_EXECUTE_OPERATION = 5,
	EINJ_CHECK_BUSY_STATUS = 6,
	EINJ_GET_COMMAND_STATUS = 7,
	EINJ_SET_ERROR_TYPE_WITH_ADDRESS = 8,
	EINJ_GET_EXECUTE_TIMINGS = 9,
	EINJ_TRIGGER_ERROR = 0xff,
};

enum einj_instruction {
	EINJ_READ_REGISTER = 0,
	EINJ_READ_REGISTER_VALUE = 1,
	EINJ_WRITE_REGISTER = 2,
	EINJ_WRITE_REGISTER_VALUE = 3,
	EINJ_NOOP = 4,
};

#define EINJ_FLAG_PRESERVE	BIT(0)
#define GAS_SYSTEM_MEMORY	0
#define GAS_SYSTEM_IO		1

#define EINJ_TYPE_MEM_UC_NONFATAL	0x10
#define EINJ_SETWA_FLAG_MEM		BIT(1)

struct einj_gas {
	u8 space_id, bit_width, bit_offset, access_size;
	u64 address;
};

struct einj_entry {
	u8 action, instruction, flags;
	struct einj_gas reg;
	u64 value, mask;
};

#define EINJ_MAX_ENTRIES	64

struct einj_table {
	u32 flags;
	unsigned int n;
	struct einj_entry e[EINJ_MAX_ENTRIES];
	bool has_setwa;			/* SET_ERROR_TYPE_WITH_ADDRESS present */
	u64 setwa_params;		/* address of its parameter block */
	/* On a refusal: the entry (-1: the header) and the value @why names. */
	int bad_entry;
	u64 bad_value;
};

/* Highest physical address bit x86-64 can have (MAXPHYADDR is at most 52). */
#define EINJ_PHYS_LIMIT		(1ULL << 52)

/* The SET_ERROR_TYPE_WITH_ADDRESS parameter block (ACPI 6.x table 18.30). */
struct einj_setwa_params {
	u32 type;
	u32 vendor_ext_offset;
	u32 flags;
	u32 apic_id;
	u64 address;
	u64 address_mask;
	u32 pcie_sbdf;
} __packed;

/* Register and memory access, supplied by the image (real) or a test (fake firmware). */
struct einj_io {
	int (*read)(void *ctx, const struct einj_gas *g, u64 *val);
	int (*write)(void *ctx, const struct einj_gas *g, u64 val);
	/* Write the parameter block at physical @addr. */
	int (*write_params)(void *ctx, u64 addr, const struct einj_setwa_params *p);
	/* Parse the trigger action table at @addr into @out (may be NULL: no trigger). */
	int (*trigger_table)(void *ctx, u64 addr, struct einj_table *out);
	void *ctx;
	unsigned long busy_polls;	/* give up after this many busy reads */
};

/*
 * Parse an EINJ table (@len bytes from its ACPI header on). Returns 0, or -1 with a reason
 * in @why (and the entry and value in @out->bad_entry, bad_value): too short, entry count
 * beyond the length, unknown action or instruction, register space other than memory or
 * I/O, bad access width or bit offset, a register address of 0, beyond 2^52 or wrapping,
 * an I/O port beyond 0xffff.
 */
int einj_parse(const void *table, size_t len, struct einj_table *out, const char **why);
/* Parse a trigger action table (header: size, revision, table size, entry count). */
int einj_parse_trigger(const void *table, size_t len, struct einj_table *out,
		       const char **why);

/*
 * Refuse a table whose memory registers or parameter block touch [@start, @end) (RAM the
 * image uses): -1 with @why and the entry and address in @t->bad_entry, bad_value.
 */
int einj_check_overlap(struct einj_table *t, u64 start, u64 end, const char **why);

/* Run the memory-error injection at @address (aligned to @mask). Returns 0 or -1 + @why. */
int einj_inject_memory(const struct einj_table *t, const struct einj_io *io, u64 address,
		       u64 mask, const char **why);

#endif
