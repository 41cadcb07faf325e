/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vote.h - the cores suite's verdict on one kernel: every CPU's 64-bit digest, compared by
 * vote over the CPUs and against the known answer (computed by another method). Plain C,
 * host-tested against a brute-force oracle (tests/host/test_cores.c).
 *
 * The classes, with k the CPUs that gave the known answer and t the largest group of CPUs
 * that agree on any other digest:
 *   AGREE      every CPU gave the known answer (k == n);
 *   REF_WRONG  every CPU gave the same digest and it is not the known answer (t == n): the
 *              reference or the code is wrong; no core is blamed, whichever it is;
 *   DISPUTED   more CPUs agree on another digest than on the known answer (t > k): no core
 *              is named (the reference, the code or several cores are wrong);
 *   MINORITY   otherwise (k >= t, k >= 1): the CPUs that did not give the known answer are
 *              named. The known answer breaks a tie: of two CPUs the one that disagrees with
 *              it is named;
 *   NONE       no CPU ran the kernel.
 */
#ifndef CK_CORES_VOTE_H
#define CK_CORES_VOTE_H

#include "kernel/include/types.h"

#define CORES_MAX_NAMED	8

enum cores_class { CORES_NONE, CORES_AGREE, CORES_MINORITY, CORES_REF_WRONG, CORES_DISPUTED };

struct cores_vote {
	enum cores_class cls;
	unsigned int n;			/* CPUs that voted */
	unsigned int nr_known;		/* of them, those that gave the known answer */
	unsigned int nr_groups;		/* distinct digests */
	u64 top;			/* the largest group's digest other than the known one */
	unsigned int nr_top;		/* its size (0: every CPU gave the known answer) */
	unsigned int nr_named;		/* CPUs in the minority (MINORITY only) */
	unsigned int named[CORES_MAX_NAMED];	/* the first of them, as indices into digest[] */
};

/*
 * Vote on @n digests (@digest[i] from the i-th CPU that ran the kernel) against @known;
 * @scratch holds @n values (it is sorted). Fills @v.
 */
void cores_vote(const u64 *digest, unsigned int n, u64 known, u64 *scratch,
		struct cores_vote *v);
/*
 * A CPU the vote named, replayed: the same kernel and seed run again on it, on its SMT
 * sibling when it has one (@wrong_sibling: 0 when none), and on two distant CPUs that gave
 * the known answer: the furthest (@wrong_far; @far_other_package when it sits in another
 * package) and a second one (@wrong_near: another core of the named CPU's package when there
 * is one; 0 when no second CPU was there). The class:
 *   "not_reproduced"  the named CPU got it right every time;
 *   "not_one_cpu"     a CPU outside the named CPU's package got it wrong too, or a distant
 *                     CPU did on a one-package machine: the machine, not one core;
 *   "package"         a second core of its package got it wrong, a CPU of another package
 *                     right: the package (its shared cache, its fabric, its power);
 *   "smt_pair"        its sibling got it wrong too, no other core did: the core two threads
 *                     share;
 *   "one_cpu"         only the named CPU got it wrong again.
 */
const char *cores_replay_class(unsigned int wrong_named, unsigned int wrong_sibling,
			       unsigned int wrong_near, unsigned int wrong_far,
			       bool far_other_package);
/*
 * Copy here, check there: CPU w's copy is checked by the next CPU c, and when c finds it
 * wrong the CPU after c (a third one) checks it again. Who is wrong: nobody (c found it
 * right), the writer (the third CPU finds it wrong too: the data are wrong), the checker (the
 * third finds it right), or undecided (no third CPU).
 */
enum cores_pair { CORES_PAIR_OK, CORES_PAIR_WRITER, CORES_PAIR_CHECKER, CORES_PAIR_UNDECIDED };
enum cores_pair cores_pair_judge(bool checker_ok, bool have_third, bool third_ok);
const char *cores_pair_name(enum cores_pair p);
/* The class's word as the KTAP lines and the JSON records give it. */
const char *cores_class_name(enum cores_class c);

#endif
