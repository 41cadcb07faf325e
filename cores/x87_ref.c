// SPDX-License-Identifier: GPL-2.0-only
/*
 * x87_ref.c - the x87 kernel's known answers, written by tools/cores-x87-ref.py from
 * mpmath 1.2.1 at 60 digits (never by this code): for x = i/1024, the doubles nearest
 * to 2^x - 1, sin x, cos x, tan x and log2 x, each within 1/4 ulp of its true value.
 */
#include "cores/x87_ref.h"

const struct cores_x87_ref cores_x87_ref[CORES_X87_INPUTS] = {
	{ 74, { 0x3faa4cb496a41731ULL, 0x3fb27be10132be5bULL, 0x3fefea9e61f8e601ULL,
		0x3fb28842f5b3dca7ULL, 0xc00e530a1d24b137ULL } },
	{ 78, { 0x3fabc254f64c600fULL, 0x3fb37b2c8bc4a3b9ULL, 0x3fefe83ef0ed77c9ULL,
		0x3fb389ad5ff31f0bULL, 0xc00db77f0a9e3f19ULL } },
	{ 81, { 0x3facdb37637c829aULL, 0x3fb43a9878d34c12ULL, 0x3fefe6626b9aea6aULL,
		0x3fb44ad6ddf9236dULL, 0xc00d47fcb8c0852fULL } },
	{ 122, { 0x3fb609d83606e11aULL, 0x3fbe6d8a958b4cf1ULL, 0x3fefc5ed98fa4acbULL,
		0x3fbea5278cc9c882ULL, 0xc0088dd9953002a5ULL } },
	{ 225, { 0x3fc50ec1d4d6e83eULL, 0x3fcbe6343815075dULL, 0x3fef3b0a5a4d4801ULL,
		0x3fcc96275ac42a54ULL, 0xc0017d60496cfbb5ULL } },
	{ 263, { 0x3fc8f104e2e99d00ULL, 0x3fd041e39c6b6b23ULL, 0x3feef34a6415a31eULL,
		0x3fd0cf08ec15004fULL, 0xbfff60967b5cbd2fULL } },
	{ 266, { 0x3fc9409baba95a00ULL, 0x3fd0704bf51f8821ULL, 0x3feeed28fae0c821ULL,
		0x3fd10262acc6df3eULL, 0xbfff1d902a37aaa5ULL } },
	{ 338, { 0x3fd07405bd1363d3ULL, 0x3fd4be54f715c264ULL, 0x3fee45c57edc6bbaULL,
		0x3fd5ed5b8e67ea1eULL, 0xbff995ff71b87734ULL } },
	{ 359, { 0x3fd19ae25d7158f9ULL, 0x3fd5fb0e0031f3c1ULL, 0x3fee0db1ac2a1a7eULL,
		0x3fd767822311d965ULL, 0xbff831cea610ceb0ULL } },
	{ 365, { 0x3fd1efe7382726aeULL, 0x3fd6551e38fbf0b9ULL, 0x3fedfd1398770579ULL,
		0x3fd7d494dcfdbb4aULL, 0xbff7cfdc7306d8a7ULL } },
	{ 382, { 0x3fd2e2ac84f54a0bULL, 0x3fd75338b0a80aa8ULL, 0x3fedcc9073194a59ULL,
		0x3fd90c3f7e88aa03ULL, 0xbff6c2d9fd3d1a04ULL } },
	{ 423, { 0x3fd537cd7ddd9a8dULL, 0x3fd9b127581fc2a1ULL, 0x3fed4ef0f12013c7ULL,
		0x3fdc0d30884f82b6ULL, 0xbff4686429759d28ULL } },
};
