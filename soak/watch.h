/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * watch.h - the soak's watchdog judgement: whether a soaking CPU's heartbeat has gone silent
 * for longer than the bound. Plain C over what the monitor saw, host-tested.
 *
 * Each soaking CPU counts its heartbeat (a per-CPU counter it bumps between pieces); the
 * monitor samples it and keeps, per CPU, the last value and when it last changed. A CPU
 * whose count has not moved for more than the bound is stuck: judged once, and it stays
 * stuck for the rest of the soak even if it beats again later (that is said, not forgiven).
 * A CPU that said it finished is done and no longer judged.
 */
#ifndef CK_SOAK_WATCH_H
#define CK_SOAK_WATCH_H

#include "kernel/include/types.h"

enum soak_watch_state { SOAK_WATCH_ALIVE, SOAK_WATCH_DONE, SOAK_WATCH_STUCK };

struct soak_watch {
	enum soak_watch_state state;
	u64 beat;		/* the count last seen */
	u64 since_us;		/* when it last changed (or the watch began) */
	u64 silent_us;		/* when judged stuck: how long it had been silent */
	bool beat_again;	/* judged stuck, then seen beating */
};

void soak_watch_init(struct soak_watch *w, u64 beat, u64 now_us);
/*
 * Judge one sample: @beat the count now, @done whether the CPU said it finished, @limit_us
 * the bound. Returns true exactly once per CPU: when this sample finds it stuck.
 */
bool soak_watch_judge(struct soak_watch *w, u64 beat, bool done, u64 now_us, u64 limit_us);

#endif
