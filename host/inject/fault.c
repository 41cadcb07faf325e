// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/inject/fault.c - the injector's faults: their parser and one step of each over the
 * guest's RAM as the host maps it (fault.h says what each kind does).
 */
#include "host/inject/fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS_NS 1000000ULL
/* A fade or flip delay of at most an hour. */
#define MAX_DELAY_MS 3600000ULL

static const struct {
	const char *name;
	enum inj_kind kind;
	int nargs;		/* numbers after the kind (a flip's delay is optional) */
} kinds[] = {
	{ "none", INJ_NONE, 0 },     { "stuck0", INJ_STUCK0, 2 }, { "stuck1", INJ_STUCK1, 2 },
	{ "zeros", INJ_ZEROS, 2 },   { "ones", INJ_ONES, 2 },     { "alias", INJ_ALIAS, 2 },
	{ "cell", INJ_CELL, 2 },     { "fade", INJ_FADE, 3 },     { "flip", INJ_FLIP, 3 },
};

const char *inj_kind_name(enum inj_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return kinds[i].name;
	return "?";
}

/* The numbers after the kind, each a C integer (0x... for hex); returns how many, -1 if bad. */
static int numbers(const char *s, uint64_t *out, int max)
{
	int n = 0;

	while (*s) {
		char *end;

		if (*s != ':' || n == max)
			return -1;
		s++;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		out[n++] = strtoull(s, &end, 0);
		if (errno || end == s)
			return -1;
		s = end;
	}
	return n;
}

static bool word_ok(uint64_t a, uint64_t ram_size)
{
	return a % 8 == 0 && ram_size >= 8 && a <= ram_size - 8;
}

static bool check_fault(const char *spec, uint64_t ram_size, struct inj_fault *f, char *why,
			size_t n)
{
	if (f->kind == INJ_NONE)
		return true;
	if (!word_ok(f->addr, ram_size)) {
		snprintf(why, n, "'%s': the address 0x%llx is not an 8-aligned word inside the "
			 "%llu-byte RAM file", spec, (unsigned long long)f->addr,
			 (unsigned long long)ram_size);
		return false;
	}
	if (f->kind == INJ_ALIAS || f->kind == INJ_CELL) {
		if (!word_ok(f->other, ram_size) || f->other == f->addr) {
			snprintf(why, n, "'%s': the second address 0x%llx is not another 8-aligned "
				 "word inside the %llu-byte RAM file", spec,
				 (unsigned long long)f->other, (unsigned long long)ram_size);
			return false;
		}
		return true;
	}
	if (f->bit > 63) {
		snprintf(why, n, "'%s': bit %u is not a bit of a 64-bit word (0..63)", spec, f->bit);
		return false;
	}
	if ((f->kind == INJ_FADE && (f->delay_ns == 0 || f->delay_ns > MAX_DELAY_MS * MS_NS)) ||
	    (f->kind == INJ_FLIP && f->delay_ns > MAX_DELAY_MS * MS_NS)) {
		snprintf(why, n, "'%s': the delay must be %s%llu ms", spec,
			 f->kind == INJ_FADE ? "1 to " : "0 to ", MAX_DELAY_MS);
		return false;
	}
	return true;
}

bool inj_parse(const char *spec, uint64_t ram_size, struct inj_fault *f, char *why,
	       size_t why_size)
{
	uint64_t v[3] = { 0, 0, 0 };

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t len = strlen(kinds[i].name);
		int got;

		if (strncmp(spec, kinds[i].name, len) || (spec[len] && spec[len] != ':'))
			continue;
		got = numbers(spec + len, v, kinds[i].nargs);
		if (got < 0 || (got != kinds[i].nargs &&
				!(kinds[i].kind == INJ_FLIP && got == 2))) {
			snprintf(why, why_size, "'%s': %s takes %d number%s after its name, each after "
				 "a ':'", spec, kinds[i].name, kinds[i].nargs,
				 kinds[i].nargs == 1 ? "" : "s");
			return false;
		}
		f->kind = kinds[i].kind;
		f->addr = v[0];
		if (f->kind == INJ_ALIAS || f->kind == INJ_CELL)
			f->other = v[1];
		else
			f->bit = v[1] > 63 ? 64 : (unsigned int)v[1];
		if (v[2] > MAX_DELAY_MS)
			v[2] = MAX_DELAY_MS + 1;
		f->delay_ns = v[2] * MS_NS;
		return check_fault(spec, ram_size, f, why, why_size);
	}
	snprintf(why, why_size, "'%s': not a fault (stuck0, stuck1, zeros, ones, alias, cell, fade, "
		 "flip or none, then ':' and its numbers)", spec);
	return false;
}

void inj_describe(const struct inj_fault *f, char *buf, size_t size)
{
	const char *name = inj_kind_name(f->kind);

	switch (f->kind) {
	case INJ_NONE:
		snprintf(buf, size, "none");
		break;
	case INJ_ALIAS:
		snprintf(buf, size, "alias at 0x%llx reads 0x%llx", (unsigned long long)f->addr,
			 (unsigned long long)f->other);
		break;
	case INJ_CELL:
		snprintf(buf, size, "cell at 0x%llx and 0x%llx", (unsigned long long)f->addr,
			 (unsigned long long)f->other);
		break;
	case INJ_FADE:
	case INJ_FLIP:
		snprintf(buf, size, "%s at 0x%llx bit %u delay %llu ms", name,
			 (unsigned long long)f->addr, f->bit,
			 (unsigned long long)(f->delay_ns / MS_NS));
		break;
	default:
		snprintf(buf, size, "%s at 0x%llx bit %u", name, (unsigned long long)f->addr, f->bit);
		break;
	}
}

static uint64_t *word(uint64_t *mem, uint64_t addr)
{
	return &mem[addr / 8];
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* Replace @old by @new at @addr unless the guest stored there meanwhile. */
static bool swap(uint64_t *mem, uint64_t addr, uint64_t old, uint64_t new, struct inj_act *act)
{
	uint64_t expect = old;

	if (!__atomic_compare_exchange_n(word(mem, addr), &expect, new, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return false;
	*act = (struct inj_act){ addr, old, new };
	return true;
}

void inj_arm(struct inj_fault *f, const uint64_t *mem)
{
	if (f->kind != INJ_FLIP || f->phase != FLIP_WAIT_ARM)
		return;
	f->last = load(&mem[f->addr / 8]);
	f->phase = FLIP_WAIT_WRITE;
}

/* Stuck-at: an atomic OR or AND keeps every bit the guest stored but the stuck one. */
static bool stuck(struct inj_fault *f, uint64_t *mem, struct inj_act *act)
{
	uint64_t m = 1ULL << f->bit, old;

	if (f->kind == INJ_STUCK1) {
		if (load(word(mem, f->addr)) & m)
			return false;
		old = __atomic_fetch_or(word(mem, f->addr), m, __ATOMIC_SEQ_CST);
		*act = (struct inj_act){ f->addr, old, old | m };
		return !(old & m);
	}
	if (!(load(word(mem, f->addr)) & m))
		return false;
	old = __atomic_fetch_and(word(mem, f->addr), ~m, __ATOMIC_SEQ_CST);
	*act = (struct inj_act){ f->addr, old, old & ~m };
	return old & m;
}

/* One cell behind two addresses: a store to one shows at the other. */
static bool cell(struct inj_fault *f, uint64_t *mem, struct inj_act *act)
{
	uint64_t a = load(word(mem, f->addr)), b = load(word(mem, f->other));
	uint64_t hi = f->addr > f->other ? a : b;

	if (a == b) {
		f->last = a;
		return false;
	}
	if (a != f->last && b == f->last)
		return swap(mem, f->other, b, a, act) && ((f->last = a), true);
	if (b != f->last && a == f->last)
		return swap(mem, f->addr, a, b, act) && ((f->last = b), true);
	/* Both changed since the last look: the higher address's store is taken as the last. */
	if (hi == a)
		return swap(mem, f->other, b, a, act) && ((f->last = a), true);
	return swap(mem, f->addr, a, b, act) && ((f->last = b), true);
}

static bool fade(struct inj_fault *f, uint64_t *mem, uint64_t now, struct inj_act *act)
{
	uint64_t m = 1ULL << f->bit, v = load(word(mem, f->addr));

	if (v != f->last) {
		f->last = v;
		f->since_ns = now;
		return false;
	}
	if (!(v & m) || now - f->since_ns < f->delay_ns)
		return false;
	if (!swap(mem, f->addr, v, v & ~m, act))
		return false;
	f->last = v & ~m;
	f->since_ns = now;
	return true;
}

static bool flip(struct inj_fault *f, uint64_t *mem, uint64_t now, struct inj_act *act)
{
	uint64_t v, m = 1ULL << f->bit;

	switch (f->phase) {
	case FLIP_WAIT_WRITE:
		v = load(word(mem, f->addr));
		if (v != f->last) {
			f->last = v;
			f->since_ns = now;
			f->phase = FLIP_WAIT_DELAY;
		}
		return false;
	case FLIP_WAIT_DELAY:
		if (now - f->since_ns < f->delay_ns)
			return false;
		v = __atomic_fetch_xor(word(mem, f->addr), m, __ATOMIC_SEQ_CST);
		*act = (struct inj_act){ f->addr, v, v ^ m };
		f->phase = FLIP_DONE;
		return true;
	default:
		return false;
	}
}

static bool step(struct inj_fault *f, uint64_t *mem, uint64_t now, struct inj_act *act)
{
	uint64_t m = 1ULL << (f->bit & 63), v;

	switch (f->kind) {
	case INJ_STUCK0:
	case INJ_STUCK1:
		return stuck(f, mem, act);
	case INJ_ZEROS:
		return swap(mem, f->addr, 0, m, act);
	case INJ_ONES:
		return swap(mem, f->addr, ~0ULL, ~m, act);
	case INJ_ALIAS:
		v = load(word(mem, f->addr));
		return v != load(word(mem, f->other)) &&
		       swap(mem, f->addr, v, load(word(mem, f->other)), act);
	case INJ_CELL:
		return cell(f, mem, act);
	case INJ_FADE:
		return fade(f, mem, now, act);
	case INJ_FLIP:
		return flip(f, mem, now, act);
	default:
		return false;
	}
}

bool inj_step(struct inj_fault *f, uint64_t *mem, uint64_t now_ns, struct inj_act *act)
{
	if (!step(f, mem, now_ns, act))
		return false;
	if (!f->acted++)
		f->first_ns = now_ns;
	f->last_ns = now_ns;
	return true;
}
