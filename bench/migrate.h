/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate.h - the `migrate` preset (bench/migrate.c): page migration end to end on every
 * online CPU, timed per phase, verified on every CPU.
 */
#ifndef CK_BENCH_MIGRATE_H
#define CK_BENCH_MIGRATE_H

#include "bench/image.h"

void bench_image_migrate(const struct bench_image_opts *opts);

#endif
