// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_inject.c - the host injector's faults (host/inject/fault.c) over a small word array
 * that stands for the guest's RAM file: the test plays the guest (plain stores between steps)
 * and holds each kind to what host/inject/fault.h's table says it does, written out here as
 * values, and the parser to its refusals.
 */
#include "host/inject/fault.h"
#include "tests/host/host_test.h"

#define WORDS 64
#define RAM (WORDS * 8)
#define MS 1000000ULL

static uint64_t mem[WORDS];

static struct inj_fault parsed(const char *spec)
{
	struct inj_fault f;
	char why[256];

	memset(mem, 0, sizeof(mem));
	if (!inj_parse(spec, RAM, &f, why, sizeof(why)))
		CHECK(0, "'%s' refused: %s", spec, why);
	return f;
}

static bool step(struct inj_fault *f, uint64_t t)
{
	struct inj_act a;

	return inj_step(f, mem, t, &a);
}

static void test_parse_good(void)
{
	struct inj_fault f;
	char why[256], d[128];

	CHECK(inj_parse("stuck1:0x10:7", RAM, &f, why, sizeof(why)) && f.kind == INJ_STUCK1 &&
	      f.addr == 16 && f.bit == 7, "stuck1: %s", why);
	CHECK(inj_parse("alias:0x100:0x8", RAM, &f, why, sizeof(why)) && f.kind == INJ_ALIAS &&
	      f.addr == 256 && f.other == 8, "alias: %s", why);
	CHECK(inj_parse("fade:8:63:2500", RAM, &f, why, sizeof(why)) && f.kind == INJ_FADE &&
	      f.bit == 63 && f.delay_ns == 2500 * MS, "fade: %s", why);
	CHECK(inj_parse("flip:0x1f8:0", RAM, &f, why, sizeof(why)) && f.kind == INJ_FLIP &&
	      f.addr == 0x1f8 && f.delay_ns == 0, "flip without delay: %s", why);
	CHECK(inj_parse("none", RAM, &f, why, sizeof(why)) && f.kind == INJ_NONE, "none: %s", why);
	inj_parse("cell:0x40:0x0", RAM, &f, why, sizeof(why));
	inj_describe(&f, d, sizeof(d));
	CHECK(!strcmp(d, "cell at 0x40 and 0x0"), "described as '%s'", d);
}

static void test_parse_refused(void)
{
	static const char *const bad[] = {
		"stuck2:0x10:1", "stuck1:0x10", "stuck1:0x10:64", "stuck1:0x11:1",
		"stuck1:0x200:1", "stuck1:0x10:1:5", "alias:0x10:0x10", "cell:0x10:0x203",
		"fade:0x10:1:0", "fade:0x10:1", "flip:0x10:1:3600001", "stuck1:0x10:1x",
		"stuck1:-8:1", "none:1", "stuck1", "", "zeros:0x10:",
	};
	struct inj_fault f;
	char why[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		CHECK(!inj_parse(bad[i], RAM, &f, why, sizeof(why)), "'%s' was taken", bad[i]);
		CHECK(strstr(why, bad[i]) != NULL, "'%s': the reason does not name it: %s", bad[i],
		      why);
	}
}

static void test_stuck(void)
{
	struct inj_fault f = parsed("stuck1:0x18:5");

	CHECK(step(&f, 1) && mem[3] == 0x20, "stuck at 1: 0x%llx", (unsigned long long)mem[3]);
	mem[3] = 0xffff;
	CHECK(!step(&f, 2) && mem[3] == 0xffff, "a word with the bit set is left alone");
	mem[3] = 0x1;
	CHECK(step(&f, 3) && mem[3] == 0x21 && f.acted == 2 && f.first_ns == 1 && f.last_ns == 3,
	      "the other bits stay: 0x%llx, acted %llu", (unsigned long long)mem[3],
	      (unsigned long long)f.acted);
	CHECK(mem[2] == 0 && mem[4] == 0, "only its word changes");

	f = parsed("stuck0:0x8:63");
	mem[1] = ~0ULL;
	CHECK(step(&f, 1) && mem[1] == 0x7fffffffffffffffULL, "stuck at 0: 0x%llx",
	      (unsigned long long)mem[1]);
	mem[1] = 0x8000000000000001ULL;
	CHECK(step(&f, 2) && mem[1] == 1, "stuck at 0 again: 0x%llx", (unsigned long long)mem[1]);
}

static void test_pattern_sensitive(void)
{
	struct inj_fault f = parsed("zeros:0x0:9");

	mem[0] = 0x1;
	CHECK(!step(&f, 1) && mem[0] == 1, "a word that is not all zeros is left alone");
	mem[0] = 0;
	CHECK(step(&f, 2) && mem[0] == 0x200, "all zeros: bit 9 turns 1: 0x%llx",
	      (unsigned long long)mem[0]);
	CHECK(!step(&f, 3) && mem[0] == 0x200, "then it is no longer all zeros");

	f = parsed("ones:0x10:0");
	mem[2] = 0xfffffffffffffffeULL;
	CHECK(!step(&f, 1), "a word that is not all ones is left alone");
	mem[2] = ~0ULL;
	CHECK(step(&f, 2) && mem[2] == 0xfffffffffffffffeULL, "all ones: bit 0 turns 0: 0x%llx",
	      (unsigned long long)mem[2]);
}

static void test_alias(void)
{
	struct inj_fault f = parsed("alias:0x100:0x80");

	mem[16] = 0xabc;
	mem[32] = 0x123;
	CHECK(step(&f, 1) && mem[32] == 0xabc && mem[16] == 0xabc, "the word reads its alias's");
	mem[32] = 0x555;
	CHECK(step(&f, 2) && mem[32] == 0xabc && mem[16] == 0xabc,
	      "a store to the word is lost; the other word keeps its value");
	mem[16] = 0x777;
	CHECK(step(&f, 3) && mem[32] == 0x777, "a store to the other shows at the word");
}

static void test_cell(void)
{
	struct inj_fault f = parsed("cell:0x8:0x108");

	mem[1] = 0x11;
	CHECK(step(&f, 1) && mem[33] == 0x11, "a store to the lower shows at the higher");
	mem[33] = 0x22;
	CHECK(step(&f, 2) && mem[1] == 0x22, "a store to the higher shows at the lower");
	CHECK(!step(&f, 3), "one cell: nothing more to do");
	mem[1] = 0x33;
	mem[33] = 0x44;
	CHECK(step(&f, 4) && mem[1] == 0x44 && mem[33] == 0x44,
	      "both stored in one period: the higher address's store wins: 0x%llx 0x%llx",
	      (unsigned long long)mem[1], (unsigned long long)mem[33]);
}

static void test_fade(void)
{
	struct inj_fault f = parsed("fade:0x20:4:1000");

	mem[4] = 0x10;
	CHECK(!step(&f, 100 * MS), "the write is seen");
	CHECK(!step(&f, 1099 * MS) && mem[4] == 0x10, "held for 999 ms");
	mem[4] = 0x11;			/* a new write starts the count again */
	CHECK(!step(&f, 1100 * MS), "the second write is seen");
	CHECK(!step(&f, 2099 * MS) && mem[4] == 0x11, "held 999 ms after the second write");
	CHECK(step(&f, 2100 * MS) && mem[4] == 0x1, "decayed 1000 ms after it: 0x%llx",
	      (unsigned long long)mem[4]);
	CHECK(!step(&f, 9000 * MS) && mem[4] == 0x1, "a 0 does not decay");
	mem[4] = 0x0f;
	CHECK(!step(&f, 9001 * MS) && !step(&f, 20000 * MS) && mem[4] == 0x0f,
	      "a word with the bit 0 never changes");
}

static void test_flip(void)
{
	struct inj_fault f = parsed("flip:0x30:2:50");

	mem[6] = 0x5;
	CHECK(!step(&f, 1 * MS) && mem[6] == 0x5, "not armed: no flip");
	inj_arm(&f, mem);
	CHECK(!step(&f, 2 * MS) && !step(&f, 500 * MS) && mem[6] == 0x5,
	      "armed, the word not written since: no flip");
	mem[6] = 0x6;
	CHECK(!step(&f, 600 * MS), "the write is seen");
	CHECK(!step(&f, 649 * MS) && mem[6] == 0x6, "49 ms after the write: not yet");
	CHECK(step(&f, 650 * MS) && mem[6] == 0x2, "50 ms after it: bit 2 inverted: 0x%llx",
	      (unsigned long long)mem[6]);
	mem[6] = 0x6;
	CHECK(!step(&f, 700 * MS) && !step(&f, 5000 * MS) && mem[6] == 0x6 && f.acted == 1,
	      "once only");
	inj_arm(&f, mem);
	mem[6] = 0;
	CHECK(!step(&f, 6000 * MS) && !step(&f, 7000 * MS), "armed again: still once only");
}

int main(void)
{
	return RUN_TESTS(test_parse_good, test_parse_refused, test_stuck, test_pattern_sensitive,
			 test_alias, test_cell, test_fade, test_flip);
}
