#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# gen-asm-inc.sh - turn the assembly that gcc -S makes of a generator file (see
# kernel/include/asm-defs.h) into NASM %defines: each "->NAME VALUE" marker becomes
# "%define NAME VALUE", a bare "->" a blank line. With a third argument "c" the same
# markers become a C header ("#define NAME VALUE" inside an include guard) instead.
# Usage: gen-asm-inc.sh GENERATOR.s SOURCE.c [c]
set -eu
marker='^[[:space:]]*\.ascii "->\([A-Za-z_][A-Za-z0-9_]*\) \$\{0,1\}\(-\{0,1\}[0-9][0-9]*\)"$'
if [ "${3:-}" = c ]; then
	guard=$(echo "CK_GEN_$2" | tr 'a-z/.-' 'A-Z___')
	echo "/* generated from $2 by tools/gen-asm-inc.sh, do not edit */"
	echo "#ifndef $guard"
	echo "#define $guard"
	sed -n -e "s/$marker/#define \\1 \\2/p" -e 's/^[[:space:]]*\.ascii "->"$//p' "$1"
	echo "#endif"
	exit 0
fi
echo "; generated from $2 by tools/gen-asm-inc.sh, do not edit"
sed -n -e "s/$marker/%define \\1 \\2/p" -e 's/^[[:space:]]*\.ascii "->"$//p' "$1"
