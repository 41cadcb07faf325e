/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errno.h - the error numbers the page APIs return, with Linux's values.
 */
#ifndef CK_ERRNO_H
#define CK_ERRNO_H

#define EFAULT		14
#define EHWPOISON	133

#endif
