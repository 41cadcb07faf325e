/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * version.h - the copykernel release string.
 */
#ifndef CK_VERSION_H
#define CK_VERSION_H

#define CK_VERSION	"0.1"

#endif
