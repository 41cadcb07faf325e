// SPDX-License-Identifier: GPL-2.0-only
/*
 * einj.c - parse EINJ tables and interpret their instructions (see einj.h). Plain C.
 *
 * Instructions: READ_REGISTER reads (register >> bit_offset) & mask; READ_REGISTER_VALUE
 * compares that with the entry's value (result 1 when equal); WRITE_REGISTER writes the
 * input value and WRITE_REGISTER_VALUE the entry's value, each as (v & mask) << bit_offset,
 * keeping the register's other bits when the PRESERVE flag is set.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/string.h"
#include "mce/einj.h"

#define ACPI_HDR_LEN		36
#define EINJ_HDR_LEN		(ACPI_HDR_LEN + 12)
#define EINJ_ENTRY_LEN		32
#define TRIGGER_HDR_LEN		16

/* The ACPI name of action @a; NULL for an action the spec does not define. */
static const char *einj_action_name(u8 a)
{
	switch (a) {
	case EINJ_BEGIN_OPERATION:		return "BEGIN_INJECTION_OPERATION";
	case EINJ_GET_TRIGGER_TABLE:		return "GET_TRIGGER_ERROR_ACTION_TABLE";
	case EINJ_SET_ERROR_TYPE:		return "SET_ERROR_TYPE";
	case EINJ_GET_ERROR_TYPE:		return "GET_ERROR_TYPE";
	case EINJ_END_OPERATION:		return "END_OPERATION";
	case EINJ_EXECUTE_OPERATION:		return "EXECUTE_OPERATION";
	case EINJ_CHECK_BUSY_STATUS:		return "CHECK_BUSY_STATUS";
	case EINJ_GET_COMMAND_STATUS:		return "GET_COMMAND_STATUS";
	case EINJ_SET_ERROR_TYPE_WITH_ADDRESS:	return "SET_ERROR_TYPE_WITH_ADDRESS";
	case EINJ_GET_EXECUTE_TIMINGS:		return "GET_EXECUTE_OPERATION_TIMINGS";
	case EINJ_TRIGGER_ERROR:		return "TRIGGER_ERROR";
	default:				return NULL;
	}
}

/* Bytes a register access touches: the access size (1..4), else the bit width, else 8. */
static unsigned int reg_bytes(const struct einj_gas *g)
{
	if (g->access_size >= 1 && g->access_size <= 4)
		return 1u << (g->access_size - 1);
	return g->bit_width ? g->bit_width / 8 : 8;
}

static int bad(struct einj_table *out, int entry, u64 value, const char *what,
	       const char **why)
{
	out->bad_entry = entry;
	out->bad_value = value;
	*why = what;
	return -1;
}

/* A register the interpreter may touch: in the I/O space or below 2^52, never at 0. */
static int check_reg(const struct einj_gas *g, int i, struct einj_table *out, const char **why)
{
	u64 n = reg_bytes(g);

	if (g->space_id == GAS_SYSTEM_IO) {
		if (n > 4)
			return bad(out, i, n * 8, "I/O register wider than 32 bits: width", why);
		if (g->address > 0x10000 - n)
			return bad(out, i, g->address, "I/O port beyond 0xffff: address", why);
		return 0;
	}
	if (!g->address)
		return bad(out, i, 0, "memory register at address", why);
	if (g->address >= EINJ_PHYS_LIMIT || g->address > EINJ_PHYS_LIMIT - n)
		return bad(out, i, g->address, "memory register beyond 2^52: address", why);
	return 0;
}

static int parse_entries(const u8 *p, size_t avail, u32 count, struct einj_table *out,
			 bool trigger, const char **why)
{
	if (count > EINJ_MAX_ENTRIES)
		return bad(out, -1, count, "more entries than the kernel keeps: count", why);
	if ((size_t)count * EINJ_ENTRY_LEN > avail)
		return bad(out, -1, count, "entry count runs past the table's length: count", why);
	out->n = 0;
	for (u32 i = 0; i < count; i++, p += EINJ_ENTRY_LEN) {
		struct einj_entry *e = &out->e[out->n++];

		e->action = p[0];
		e->instruction = p[1];
		e->flags = p[2];
		e->reg.space_id = p[4];
		e->reg.bit_width = p[5];
		e->reg.bit_offset = p[6];
		e->reg.access_size = p[7];
		e->reg.address = get_le64(p + 8);
		e->value = get_le64(p + 16);
		e->mask = get_le64(p + 24);
		if (!einj_action_name(e->action) || (trigger && e->action != EINJ_TRIGGER_ERROR)) {
			*why = "unknown injection action";
			return -1;
		}
		if (e->instruction > EINJ_NOOP) {
			*why = "unknown instruction";
			return -1;
		}
		if (e->instruction == EINJ_NOOP)
			continue;
		if (e->reg.space_id != GAS_SYSTEM_MEMORY && e->reg.space_id != GAS_SYSTEM_IO) {
			*why = "register space is neither system memory nor system I/O";
			return -1;
		}
		if (e->reg.access_size > 4 || (e->reg.bit_width && e->reg.bit_width != 8 &&
					       e->reg.bit_width != 16 && e->reg.bit_width != 32 &&
					       e->reg.bit_width != 64)) {
			*why = "bad register width";
			return -1;
		}
		if (e->reg.bit_offset >= 64) {
			*why = "bad bit offset";
			return -1;
		}
		if (check_reg(&e->reg, (int)i, out, why))
			return -1;
		if (e->action == EINJ_SET_ERROR_TYPE_WITH_ADDRESS) {
			if (e->reg.space_id != GAS_SYSTEM_MEMORY ||
			    e->reg.address > EINJ_PHYS_LIMIT - sizeof(struct einj_setwa_params))
				return bad(out, (int)i, e->reg.address, "SET_ERROR_TYPE_WITH_ADDRESS "
					   "parameter block not in memory below 2^52: address", why);
			out->has_setwa = true;
			out->setwa_params = e->reg.address;
		}
	}
	return 0;
}

int einj_check_overlap(struct einj_table *t, u64 start, u64 end, const char **why)
{
	for (unsigned int i = 0; i < t->n; i++) {
		const struct einj_entry *e = &t->e[i];
		u64 a = e->reg.address, n = reg_bytes(&e->reg);

		if (e->instruction == EINJ_NOOP || e->reg.space_id != GAS_SYSTEM_MEMORY)
			continue;
		if (e->action == EINJ_SET_ERROR_TYPE_WITH_ADDRESS)
			n = MAX(n, sizeof(struct einj_setwa_params));
		if (a < end && start < a + n)
			return bad(t, (int)i, a, "register inside the image's own memory: "
				   "address", why);
	}
	return 0;
}

int einj_parse(const void *table, size_t len, struct einj_table *out, const char **why)
{
	const u8 *b = table;
	u32 hdr_size, count;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (len < EINJ_HDR_LEN || memcmp(b, "EINJ", 4)) {
		*why = "not an EINJ table, or shorter than its header";
		return -1;
	}
	if (get_le32(b + 4) != len) {
		*why = "header length differs from the table's size";
		return -1;
	}
	hdr_size = get_le32(b + ACPI_HDR_LEN);
	out->flags = b[ACPI_HDR_LEN + 4];
	count = get_le32(b + ACPI_HDR_LEN + 8);
	if (hdr_size != EINJ_HDR_LEN - ACPI_HDR_LEN && hdr_size != EINJ_HDR_LEN) {
		*why = "unexpected injection header size";
		return -1;
	}
	return parse_entries(b + EINJ_HDR_LEN, len - EINJ_HDR_LEN, count, out, false, why);
}

int einj_parse_trigger(const void *table, size_t len, struct einj_table *out,
		       const char **why)
{
	const u8 *b = table;
	u32 hdr, size, count;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (len < TRIGGER_HDR_LEN) {
		*why = "trigger table shorter than its header";
		return -1;
	}
	hdr = get_le32(b);
	size = get_le32(b + 8);
	count = get_le32(b + 12);
	if (hdr != TRIGGER_HDR_LEN || size > len || size < hdr) {
		*why = "trigger table header inconsistent";
		return -1;
	}
	return parse_entries(b + hdr, size - hdr, count, out, true, why);
}

static u64 field_mask(const struct einj_entry *e)
{
	return e->mask ? e->mask : ~0ULL;
}

/* Run every entry for @action in order; @in is the input value, *@out the last result. */
static int run_action(const struct einj_table *t, const struct einj_io *io, u8 action, u64 in,
		      u64 *out, bool optional, const char **why)
{
	bool found = false;

	for (unsigned int i = 0; i < t->n; i++) {
		const struct einj_entry *e = &t->e[i];
		u64 reg = 0, v, m = field_mask(e);

		if (e->action != action)
			continue;
		found = true;
		switch (e->instruction) {
		case EINJ_READ_REGISTER:
		case EINJ_READ_REGISTER_VALUE:
			if (io->read(io->ctx, &e->reg, &reg)) {
				*why = "register read failed";
				return -1;
			}
			v = (reg >> e->reg.bit_offset) & m;
			if (out)
				*out = e->instruction == EINJ_READ_REGISTER ? v : (v == e->value);
			break;
		case EINJ_WRITE_REGISTER:
		case EINJ_WRITE_REGISTER_VALUE:
			v = e->instruction == EINJ_WRITE_REGISTER ? in : e->value;
			if ((e->flags & EINJ_FLAG_PRESERVE) && io->read(io->ctx, &e->reg, &reg)) {
				*why = "register read failed";
				return -1;
			}
			if (!(e->flags & EINJ_FLAG_PRESERVE))
				reg = 0;
			reg = (reg & ~(m << e->reg.bit_offset)) | ((v & m) << e->reg.bit_offset);
			if (io->write(io->ctx, &e->reg, reg)) {
				*why = "register write failed";
				return -1;
			}
			break;
		default:
			break;
		}
	}
	if (!found && !optional) {
		*why = "the table lacks a required action";
		return -1;
	}
	return 0;
}

int einj_inject_memory(const struct einj_table *t, const struct einj_io *io, u64 address,
		       u64 mask, const char **why)
{
	struct einj_setwa_params p = { 0 };
	struct einj_table trig;
	u64 v = 0, trigger = 0;
	unsigned long polls = 0;

	*why = NULL;
	if (!t->has_setwa) {
		*why = "firmware has only SET_ERROR_TYPE (pre-ACPI 5.0): it cannot aim at an "
		       "address";
		return -1;
	}
	if (mask && (mask & ~0xfffULL) != ~0xfffULL) {
		*why = "address mask coarser than a page";
		return -1;
	}
	if (run_action(t, io, EINJ_BEGIN_OPERATION, 0, NULL, true, why))
		return -1;
	p.type = EINJ_TYPE_MEM_UC_NONFATAL;
	p.flags = EINJ_SETWA_FLAG_MEM;
	p.address = address;
	p.address_mask = mask;
	if (io->write_params(io->ctx, t->setwa_params, &p)) {
		*why = "could not write the parameter block";
		return -1;
	}
	if (run_action(t, io, EINJ_EXECUTE_OPERATION, 0, NULL, false, why))
		return -1;
	for (;;) {
		if (run_action(t, io, EINJ_CHECK_BUSY_STATUS, 0, &v, false, why))
			return -1;
		if (!(v & 1))
			break;
		if (++polls >= io->busy_polls) {
			*why = "firmware stayed busy";
			return -1;
		}
	}
	if (run_action(t, io, EINJ_GET_COMMAND_STATUS, 0, &v, false, why))
		return -1;
	if (v != 0) {
		*why = "GET_COMMAND_STATUS is not success";
		return -1;
	}
	if (run_action(t, io, EINJ_GET_TRIGGER_TABLE, 0, &trigger, true, why))
		return -1;
	if (trigger) {
		if (io->trigger_table(io->ctx, trigger, &trig)) {
			*why = "trigger table unreadable or malformed";
			return -1;
		}
		if (run_action(&trig, io, EINJ_TRIGGER_ERROR, 0, NULL, true, why))
			return -1;
	}
	return run_action(t, io, EINJ_END_OPERATION, 0, NULL, true, why);
}
