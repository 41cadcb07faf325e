/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * types.h - fixed-width types and small helpers shared by the kernel and its host builds.
 * Only freestanding headers are used so the same code compiles in the image and on Linux.
 */
#ifndef CK_TYPES_H
#define CK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define BIT(n)			(1ULL << (n))
#define MIN(a, b)		((a) < (b) ? (a) : (b))
#define MAX(a, b)		((a) > (b) ? (a) : (b))

#define SZ_4K	0x1000ULL
#define SZ_2M	0x200000ULL
#define SZ_1G	0x40000000ULL

#define __noreturn	__attribute__((noreturn))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __packed	__attribute__((packed))
#define __aligned(x)	__attribute__((aligned(x)))
#define __used		__attribute__((used))
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif
