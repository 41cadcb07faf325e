// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_einj.c - the EINJ parser and action interpreter against a fake firmware: a register
 * space of a few memory registers and an SMI port, a parameter block, busy polling, a
 * command status and a trigger table. Checks the order of the sequence, the parameter
 * block's contents, every failure path, and malformed tables.
 */
#include <stdint.h>

#include "mce/einj.h"
#include "tests/host/host_test.h"

#define R_CMD	0x1000
#define R_TRIG	0x1008
#define R_PARAM	0x2000
#define R_BUSY	0x1010
#define R_STAT	0x1018
#define R_ETYPE	0x1020
#define R_FIRE	0x1030
#define SMI_PORT 0xb2

struct fw {
	u64 mem[0x40];		/* registers at 0x1000 + 8 * i */
	struct einj_setwa_params params;
	bool params_written;
	int busy_left, busy_forever, status;
	bool trigger;
	char log[512];
};

static void fw_log(struct fw *f, const char *s)
{
	strncat(f->log, s, sizeof(f->log) - strlen(f->log) - 1);
}

static u64 *reg(struct fw *f, u64 a)
{
	return a >= 0x1000 && a < 0x1000 + 8 * 0x40 ? &f->mem[(a - 0x1000) / 8] : NULL;
}

static int fw_read(void *ctx, const struct einj_gas *g, u64 *v)
{
	struct fw *f = ctx;
	u64 *r = g->space_id == GAS_SYSTEM_MEMORY ? reg(f, g->address) : NULL;

	if (!r)
		return -1;
	if (g->address == R_BUSY) {
		fw_log(f, "poll ");
		*r = f->busy_forever || f->busy_left-- > 0;
	}
	if (g->address == R_STAT)
		fw_log(f, "status ");
	if (g->address == R_TRIG) {
		fw_log(f, "trig ");
		*r = f->trigger ? 0x3000 : 0;
	}
	*v = *r;
	return 0;
}

static int fw_write(void *ctx, const struct einj_gas *g, u64 v)
{
	struct fw *f = ctx;
	char buf[64];

	if (g->space_id == GAS_SYSTEM_IO && g->address == SMI_PORT) {
		snprintf(buf, sizeof(buf), "smi:%llx ", (unsigned long long)v);
		fw_log(f, buf);
		f->mem[(R_STAT - 0x1000) / 8] = f->params_written &&
			f->params.type == EINJ_TYPE_MEM_UC_NONFATAL ? (u64)f->status : 1;
		return 0;
	}
	if (g->space_id != GAS_SYSTEM_MEMORY || !reg(f, g->address))
		return -1;
	snprintf(buf, sizeof(buf), "w%llx=%llx ", (unsigned long long)g->address,
		 (unsigned long long)v);
	fw_log(f, buf);
	*reg(f, g->address) = v;
	return 0;
}

static int fw_params(void *ctx, u64 addr, const struct einj_setwa_params *p)
{
	struct fw *f = ctx;

	if (addr != R_PARAM)
		return -1;
	f->params = *p;
	f->params_written = true;
	fw_log(f, "params ");
	return 0;
}

static int fw_trigger(void *ctx, u64 addr, struct einj_table *out)
{
	(void)ctx;
	if (addr != 0x3000)
		return -1;
	memset(out, 0, sizeof(*out));
	out->n = 1;
	out->e[0] = (struct einj_entry){ .action = EINJ_TRIGGER_ERROR,
					 .instruction = EINJ_WRITE_REGISTER_VALUE,
					 .reg = { GAS_SYSTEM_MEMORY, 64, 0, 4, R_FIRE },
					 .value = 0x77, .mask = ~0ULL };
	return 0;
}

/* A table image: ACPI header, injection header, entries. */
static unsigned char tbl[48 + 32 * 16];

static void put_entry(int i, u8 action, u8 insn, u8 flags, u8 space, u8 width, u64 addr,
		      u64 value, u64 mask)
{
	unsigned char *p = tbl + 48 + 32 * i;

	memset(p, 0, 32);
	p[0] = action;
	p[1] = insn;
	p[2] = flags;
	p[4] = space;
	p[5] = width;
	p[7] = width == 8 ? 1 : 4;
	memcpy(p + 8, &addr, 8);
	memcpy(p + 16, &value, 8);
	memcpy(p + 24, &mask, 8);
}

static size_t build(int n)
{
	u32 len = 48 + 32 * (u32)n, hs = 12, cnt = (u32)n;

	memset(tbl, 0, 48);
	memcpy(tbl, "EINJ", 4);
	memcpy(tbl + 4, &len, 4);
	memcpy(tbl + 36, &hs, 4);
	memcpy(tbl + 44, &cnt, 4);
	return len;
}

static size_t good_table(void)
{
	put_entry(0, EINJ_BEGIN_OPERATION, EINJ_WRITE_REGISTER_VALUE, 0, 0, 64, R_CMD, 0xb, ~0ULL);
	put_entry(1, EINJ_GET_TRIGGER_TABLE, EINJ_READ_REGISTER, 0, 0, 64, R_TRIG, 0, ~0ULL);
	put_entry(2, EINJ_SET_ERROR_TYPE_WITH_ADDRESS, EINJ_WRITE_REGISTER, 0, 0, 64, R_PARAM, 0,
		  ~0ULL);
	put_entry(3, EINJ_EXECUTE_OPERATION, EINJ_WRITE_REGISTER_VALUE, 0, 1, 8, SMI_PORT, 0x9a,
		  0xff);
	put_entry(4, EINJ_CHECK_BUSY_STATUS, EINJ_READ_REGISTER_VALUE, 0, 0, 64, R_BUSY, 1, 1);
	put_entry(5, EINJ_GET_COMMAND_STATUS, EINJ_READ_REGISTER, 0, 0, 64, R_STAT, 0, 0xff);
	put_entry(6, EINJ_END_OPERATION, EINJ_WRITE_REGISTER_VALUE, 0, 0, 64, R_CMD, 0xe, ~0ULL);
	put_entry(7, EINJ_GET_ERROR_TYPE, EINJ_READ_REGISTER, 0, 0, 64, R_ETYPE, 0, ~0ULL);
	return build(8);
}

static struct fw fw;
static struct einj_io io = { fw_read, fw_write, fw_params, fw_trigger, &fw, 100 };

static void reset_fw(void)
{
	memset(&fw, 0, sizeof(fw));
	fw.busy_left = 3;
}

static void test_parse_good(void)
{
	struct einj_table t;
	const char *why;
	size_t len = good_table();

	CHECK(einj_parse(tbl, len, &t, &why) == 0, "parse: %s", why ? why : "");
	CHECK(t.n == 8 && t.has_setwa && t.setwa_params == R_PARAM, "8 entries, SETWA at 0x%llx",
	      (unsigned long long)t.setwa_params);
	CHECK(t.e[3].reg.space_id == GAS_SYSTEM_IO && t.e[3].value == 0x9a, "SMI entry");
}

static void test_inject_sequence(void)
{
	struct einj_table t;
	const char *why;

	einj_parse(tbl, good_table(), &t, &why);
	reset_fw();
	fw.trigger = true;
	CHECK(einj_inject_memory(&t, &io, 0x12345000ULL, ~0xfffULL, &why) == 0, "inject: %s",
	      why ? why : "");
	CHECK(!strcmp(fw.log, "w1000=b params smi:9a poll poll poll poll status trig w1030=77 "
		      "w1000=e "), "sequence: %s", fw.log);
	CHECK(fw.params.type == 0x10 && fw.params.flags == 2 &&
	      fw.params.address == 0x12345000ULL &&
	      fw.params.address_mask == ~0xfffULL, "parameter block");
	reset_fw();
	CHECK(einj_inject_memory(&t, &io, 0x1000, 0, &why) == 0 && !strstr(fw.log, "w1030"),
	      "no trigger table: nothing fired (%s)", fw.log);
}

static void test_inject_failures(void)
{
	struct einj_table t;
	const char *why;

	einj_parse(tbl, good_table(), &t, &why);
	reset_fw();
	fw.busy_forever = 1;
	CHECK(einj_inject_memory(&t, &io, 0x1000, 0, &why) == -1 && strstr(why, "busy"),
	      "busy forever: %s", why ? why : "");
	reset_fw();
	fw.status = 3;
	CHECK(einj_inject_memory(&t, &io, 0x1000, 0, &why) == -1 && strstr(why, "not success"),
	      "command status 3: %s", why ? why : "");
	reset_fw();
	CHECK(einj_inject_memory(&t, &io, 0x1000, ~0x1fffULL, &why) == -1 &&
	      strstr(why, "coarser"), "mask of 8 KiB refused: %s", why ? why : "");
	CHECK(fw.log[0] == '\0', "refused before touching the firmware");
	put_entry(2, EINJ_SET_ERROR_TYPE, EINJ_WRITE_REGISTER, 0, 0, 64, R_ETYPE, 0, ~0ULL);
	einj_parse(tbl, build(8), &t, &why);
	CHECK(einj_inject_memory(&t, &io, 0x1000, 0, &why) == -1 && strstr(why, "pre-ACPI 5.0"),
	      "old firmware refused: %s", why ? why : "");
	good_table();
	put_entry(3, EINJ_EXECUTE_OPERATION, EINJ_NOOP, 0, 0, 0, 0, 0, 0);
	put_entry(5, EINJ_GET_ERROR_TYPE, EINJ_READ_REGISTER, 0, 0, 64, R_ETYPE, 0, ~0ULL);
	einj_parse(tbl, build(8), &t, &why);
	reset_fw();
	CHECK(einj_inject_memory(&t, &io, 0x1000, 0, &why) == -1 && strstr(why, "lacks"),
	      "no GET_COMMAND_STATUS: %s", why ? why : "");
}

static void test_preserve(void)
{
	struct einj_table t;
	const char *why;

	put_entry(0, EINJ_BEGIN_OPERATION, EINJ_WRITE_REGISTER_VALUE, EINJ_FLAG_PRESERVE, 0, 64,
		  R_CMD, 0x5, 0xf);
	tbl[48 + 6] = 8;	/* bit offset 8 */
	put_entry(1, EINJ_SET_ERROR_TYPE_WITH_ADDRESS, EINJ_WRITE_REGISTER, 0, 0, 64, R_PARAM, 0,
		  ~0ULL);
	put_entry(2, EINJ_EXECUTE_OPERATION, EINJ_NOOP, 0, 0, 0, 0, 0, 0);
	put_entry(3, EINJ_CHECK_BUSY_STATUS, EINJ_READ_REGISTER_VALUE, 0, 0, 64, R_BUSY, 1, 1);
	put_entry(4, EINJ_GET_COMMAND_STATUS, EINJ_READ_REGISTER, 0, 0, 64, R_STAT, 0, 0xff);
	CHECK(einj_parse(tbl, build(5), &t, &why) == 0, "parse: %s", why ? why : "");
	reset_fw();
	fw.mem[0] = 0xffffffffULL;
	einj_inject_memory(&t, &io, 0x1000, 0, &why);
	CHECK(fw.mem[0] == 0xfffff5ffULL, "PRESERVE keeps other bits: 0x%llx",
	      (unsigned long long)fw.mem[0]);
}

static void test_malformed(void)
{
	struct einj_table t;
	const char *why;
	size_t len = good_table();
	u32 big = 1000;

	CHECK(einj_parse(tbl, 40, &t, &why) == -1, "too short");
	tbl[0] = 'X';
	CHECK(einj_parse(tbl, len, &t, &why) == -1, "wrong signature");
	len = good_table();
	CHECK(einj_parse(tbl, len - 32, &t, &why) == -1 && strstr(why, "length"),
	      "length mismatch: %s", why ? why : "");
	memcpy(tbl + 44, &big, 4);
	CHECK(einj_parse(tbl, len, &t, &why) == -1, "count beyond length: %s", why ? why : "");
	len = good_table();
	tbl[48 + 32 * 2] = 0x42;
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && strstr(why, "action"), "unknown action");
	len = good_table();
	tbl[48 + 32 * 2 + 1] = 7;
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && strstr(why, "instruction"),
	      "unknown instruction");
	len = good_table();
	tbl[48 + 32 * 2 + 4] = 2;	/* PCI config space */
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && strstr(why, "space"), "PCI config space");
	len = good_table();
	tbl[48 + 32 * 2 + 5] = 12;
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && strstr(why, "width"), "12-bit register");
	len = good_table();
	tbl[36] = 20;
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && strstr(why, "header size"),
	      "header size 20");
}

static void test_trigger_parse(void)
{
	unsigned char trig[16 + 32];
	u32 hdr = 16, rev = 1, size = 48, cnt = 1;
	struct einj_table t;
	const char *why;

	memcpy(trig, &hdr, 4);
	memcpy(trig + 4, &rev, 4);
	memcpy(trig + 8, &size, 4);
	memcpy(trig + 12, &cnt, 4);
	memset(trig + 16, 0, 32);
	trig[16] = EINJ_TRIGGER_ERROR;
	trig[16 + 1] = EINJ_WRITE_REGISTER_VALUE;
	trig[16 + 5] = 32;
	trig[16 + 9] = 0x10;	/* register at 0x1000: address 0 is refused */
	CHECK(einj_parse_trigger(trig, sizeof(trig), &t, &why) == 0 && t.n == 1, "trigger: %s",
	      why ? why : "");
	trig[16] = EINJ_EXECUTE_OPERATION;
	CHECK(einj_parse_trigger(trig, sizeof(trig), &t, &why) == -1,
	      "only TRIGGER_ERROR belongs in a trigger table");
	size = 100;
	memcpy(trig + 8, &size, 4);
	CHECK(einj_parse_trigger(trig, sizeof(trig), &t, &why) == -1, "size beyond buffer");
}

/* Register addresses that would fault or hit the image are refused at parse time. */
static void test_bogus_addresses(void)
{
	static struct einj_table t;
	const char *why;
	size_t len;

	good_table();
	put_entry(4, EINJ_CHECK_BUSY_STATUS, EINJ_READ_REGISTER_VALUE, 0, 0, 64,
		  0xfffffffffffff000ULL, 1, 1);
	len = build(8);
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && t.bad_entry == 4 &&
	      t.bad_value == 0xfffffffffffff000ULL && strstr(why, "2^52"),
	      "register beyond 2^52 refused: %s", why ? why : "accepted");
	good_table();
	put_entry(0, EINJ_BEGIN_OPERATION, EINJ_WRITE_REGISTER_VALUE, 0, 0, 64, 0, 0xb, ~0ULL);
	len = build(8);
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && t.bad_entry == 0 && t.bad_value == 0,
	      "register at 0 refused: %s", why ? why : "accepted");
	good_table();
	put_entry(3, EINJ_EXECUTE_OPERATION, EINJ_WRITE_REGISTER_VALUE, 0, 1, 8, 0x10000, 1, 0xff);
	len = build(8);
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && t.bad_value == 0x10000,
	      "port 0x10000 refused: %s", why ? why : "accepted");
	good_table();
	put_entry(2, EINJ_SET_ERROR_TYPE_WITH_ADDRESS, EINJ_WRITE_REGISTER, 0, 0, 64,
		  EINJ_PHYS_LIMIT - 8, 0, ~0ULL);
	len = build(8);
	CHECK(einj_parse(tbl, len, &t, &why) == -1 && t.bad_entry == 2,
	      "parameter block past 2^52 refused: %s", why ? why : "accepted");
	len = good_table();
	CHECK(einj_parse(tbl, len, &t, &why) == 0, "good table parses");
	CHECK(einj_check_overlap(&t, R_PARAM + 8, R_PARAM + 0x1000, &why) == -1 &&
	      t.bad_entry == 2 && t.bad_value == R_PARAM, "parameter block over the image");
	CHECK(einj_check_overlap(&t, 0x100000000ULL, 0x100001000ULL, &why) == 0,
	      "no overlap elsewhere");
}

int main(void)
{
	return RUN_TESTS(test_bogus_addresses, test_parse_good, test_inject_sequence, test_inject_failures,
			 test_preserve, test_malformed, test_trigger_parse);
}
