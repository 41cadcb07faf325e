#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# gen-asm-inc.sh - turn the assembly that gcc -S makes of a generator file (see
# kernel/include/asm-defs.h) into NASM %defines: each "->NAME VALUE" marker becomes
# "%define NAME VALUE", a bare "->" a blank line. Usage: gen-asm-inc.sh GENERATOR.s SOURCE.c
set -eu
echo "; generated from $2 by tools/gen-asm-inc.sh, do not edit"
sed -n -e 's/^[[:space:]]*\.ascii "->\([A-Za-z_][A-Za-z0-9_]*\) \$\{0,1\}\(-\{0,1\}[0-9][0-9]*\)"$/%define \1 \2/p' \
	-e 's/^[[:space:]]*\.ascii "->"$//p' "$1"
