/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_run.h - run the bench= presets inside the image (bench/ has the harness).
 */
#ifndef CK_BENCH_RUN_H
#define CK_BENCH_RUN_H

#include "kernel/cmdline.h"

struct bench_env;
struct bench_platform;

/* The image's clock, output, allocation and capabilities (cache-hot use needs nothing else). */
void bench_image_env(struct bench_env *env, struct bench_platform *plat);
void bench_image_run(const struct ck_config *cfg);

#endif
