/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * einj_io.h - the image's register access for EINJ: system memory through the identity map
 * (MMIO pages mapped uncached on first use) and system I/O through in/out.
 */
#ifndef CK_MCE_EINJ_IO_H
#define CK_MCE_EINJ_IO_H

#include "mce/einj.h"

extern const struct einj_io einj_kernel_io;

#endif
