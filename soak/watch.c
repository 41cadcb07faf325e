// SPDX-License-Identifier: GPL-2.0-only
/*
 * watch.c - heartbeat judgement (watch.h).
 */
#include "soak/watch.h"

void soak_watch_init(struct soak_watch *w, u64 beat, u64 now_us)
{
	*w = (struct soak_watch){ .state = SOAK_WATCH_ALIVE, .beat = beat, .since_us = now_us };
}

bool soak_watch_judge(struct soak_watch *w, u64 beat, bool done, u64 now_us, u64 limit_us)
{
	if (w->state == SOAK_WATCH_STUCK) {
		w->beat_again |= beat != w->beat;
		return false;
	}
	if (w->state == SOAK_WATCH_DONE)
		return false;
	if (done) {
		w->state = SOAK_WATCH_DONE;
		return false;
	}
	if (beat != w->beat || now_us < w->since_us) {
		/* a beat, or a clock read before the last (another CPU's TSC): start over */
		w->beat = beat;
		w->since_us = now_us;
		return false;
	}
	if (now_us - w->since_us <= limit_us)
		return false;
	w->state = SOAK_WATCH_STUCK;
	w->silent_us = now_us - w->since_us;
	return true;
}
