// SPDX-License-Identifier: GPL-2.0-only
/*
 * vote.c - the cores suite's vote (rules in vote.h): the digests sorted, then counted in
 * runs, so the groups come out in one pass whatever their number.
 */
#include "cores/vote.h"
#include "kernel/lib/sort.h"

static void count_groups(const u64 *sorted, unsigned int n, u64 known, struct cores_vote *v)
{
	for (unsigned int i = 0; i < n;) {
		unsigned int j = i;

		while (j < n && sorted[j] == sorted[i])
			j++;
		v->nr_groups++;
		if (sorted[i] == known)
			v->nr_known = j - i;
		else if (j - i > v->nr_top)
			v->nr_top = j - i, v->top = sorted[i];
		i = j;
	}
}

void cores_vote(const u64 *digest, unsigned int n, u64 known, u64 *scratch,
		struct cores_vote *v)
{
	*v = (struct cores_vote){ .n = n };
	if (!n) {
		v->cls = CORES_NONE;
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		scratch[i] = digest[i];
	sort_u64(scratch, n);
	count_groups(scratch, n, known, v);
	if (v->nr_known == n) {
		v->cls = CORES_AGREE;
	} else if (v->nr_top == n) {
		v->cls = CORES_REF_WRONG;
	} else if (v->nr_top > v->nr_known) {
		v->cls = CORES_DISPUTED;
	} else {
		v->cls = CORES_MINORITY;
		for (unsigned int i = 0; i < n; i++) {
			if (digest[i] == known)
				continue;
			if (v->nr_named < CORES_MAX_NAMED)
				v->named[v->nr_named] = i;
			v->nr_named++;
		}
	}
}

const char *cores_replay_class(unsigned int wrong_named, unsigned int wrong_sibling,
			       unsigned int wrong_near, unsigned int wrong_far,
			       bool far_other_package)
{
	if (!wrong_named)
		return "not_reproduced";
	if (wrong_far)
		return "not_one_cpu";
	if (wrong_near)
		return far_other_package ? "package" : "not_one_cpu";
	return wrong_sibling ? "smt_pair" : "one_cpu";
}

enum cores_pair cores_pair_judge(bool checker_ok, bool have_third, bool third_ok)
{
	if (checker_ok)
		return CORES_PAIR_OK;
	if (!have_third)
		return CORES_PAIR_UNDECIDED;
	return third_ok ? CORES_PAIR_CHECKER : CORES_PAIR_WRITER;
}

const char *cores_pair_name(enum cores_pair p)
{
	static const char *const names[] = { "ok", "writer", "checker", "undecided" };

	return (unsigned int)p < ARRAY_SIZE(names) ? names[p] : "?";
}

const char *cores_class_name(enum cores_class c)
{
	switch (c) {
	case CORES_AGREE:
		return "agree";
	case CORES_MINORITY:
		return "minority";
	case CORES_REF_WRONG:
		return "reference_or_code_wrong";
	case CORES_DISPUTED:
		return "disputed";
	default:
		return "none";
	}
}
