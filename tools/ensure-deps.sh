#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ensure-deps.sh build|run|img|check|sign|lava|lab|soak-bench|memtest - make sure the Debian
# packages a target needs are present (sign: sbsigntool and openssl, for make sign; soak-bench:
# stressapptest, the peer the hosted soak twin is compared with; memtest:
# memtest86+, the tester make memtest-compare runs beside the soak; lab: make lab-check's LAVA
# server, worker and PostgreSQL).
# As root, missing ones are installed with apt-get; otherwise the script names them and fails.
set -eu
what=${1:-build}
missing=""

need() {	# need <package> <test...>
	pkg=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		missing="$missing $pkg"
	fi
}

need gcc command -v gcc
need binutils command -v objcopy
need make command -v make
need nasm command -v nasm
need gnu-efi test -f /usr/lib/crt0-efi-x86_64.o -a -f /usr/include/efi/efi.h
if [ "$what" = run ] || [ "$what" = check ] || [ "$what" = lava ] || [ "$what" = memtest ] ||
	[ "$what" = lab ]; then
	need qemu-system-x86 command -v qemu-system-x86_64
	need ovmf test -f /usr/share/qemu/OVMF.fd -o -f /usr/share/ovmf/OVMF.fd
	need python3 test -x /usr/bin/python3
fi
if [ "$what" = check ] || [ "$what" = img ] || [ "$what" = lava ]; then
	need dosfstools command -v mkfs.fat
	need mtools command -v mcopy
fi
if [ "$what" = check ]; then
	need clang command -v clang
	need libclang-rt-14-dev sh -c \
		'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
	need libasan8 sh -c 'ls /usr/lib/x86_64-linux-gnu/libasan.so.*'
	need libubsan1 sh -c 'ls /usr/lib/x86_64-linux-gnu/libubsan.so.*'
	need python3-matplotlib /usr/bin/python3 -c 'import matplotlib'
	need python3-pytest /usr/bin/python3 -c 'import pytest'
	need python3-hypothesis /usr/bin/python3 -c 'import hypothesis'
	need python3-jsonschema /usr/bin/python3 -c 'import jsonschema'
	# A QEMU scenario runs the LAVA monitors tools/ck-lava.py renders over the serial log.
	need python3-jinja2 /usr/bin/python3 -c 'import jinja2'
	need python3-yaml /usr/bin/python3 -c 'import yaml'
	# The cores suite's scenarios flip a bit in one vCPU through QEMU's gdb stub.
	need gdb command -v gdb
	# tests/tools/test_cores_x87_ref.py recomputes the x87 kernel's known answers.
	need python3-mpmath /usr/bin/python3 -c 'import mpmath'
fi
if [ "$what" = check ] || [ "$what" = sign ]; then	# make sign, the Secure Boot scenarios
	need sbsigntool command -v sbsign
	need openssl command -v openssl
fi
if [ "$what" = soak-bench ]; then
	need stressapptest command -v stressapptest
fi
if [ "$what" = memtest ]; then
	need memtest86+ test -f /boot/memtest86+x64.efi
fi
if [ "$what" = lava ] || [ "$what" = lab ]; then	# lava-run, lava-common, yaml, jinja2
	need lava-dispatcher command -v lava-run
fi
if [ "$what" = lab ]; then	# no lavacli: tools/cklib/lavaapi.py speaks the REST API
	need lava-server test -x /usr/bin/lava-server -a -x /usr/bin/gunicorn3
	need postgresql sh -c 'ls /usr/lib/postgresql/*/bin/initdb'
	need python3-pytest /usr/bin/python3 -c 'import pytest'
	need python3-hypothesis /usr/bin/python3 -c 'import hypothesis'
	need python3-jsonschema /usr/bin/python3 -c 'import jsonschema'
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "ensure-deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	exit 0
fi
echo "ensure-deps: missing Debian packages:$missing" >&2
echo "ensure-deps: install them with: sudo apt-get install$missing" >&2
exit 1
