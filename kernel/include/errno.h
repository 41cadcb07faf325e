/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errno.h - the error numbers the page APIs and the checkpoint writer (soak/blackbox.h)
 * return, with Linux's values.
 */
#ifndef CK_ERRNO_H
#define CK_ERRNO_H

#define EIO		5
#define EAGAIN		11
#define EFAULT		14
#define EINVAL		22
#define EHWPOISON	133

#endif
