#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# sign.sh KEY CERT IN OUT - sign the UEFI image IN for Secure Boot with sbsign (Debian's
# sbsigntool) into OUT, then check OUT against CERT with sbverify (make sign). It refuses,
# naming what is wrong, without sbsign, with a key or certificate it cannot read, and when
# sbsign or sbverify warns (a PE layout the signature might not cover: OUT is not written).
# sign.sh --plain-key KEY PASSPHRASE OUT - KEY's private key without its passphrase (openssl),
# for Debian's snakeoil test key, whose passphrase sbsign would ask for on a terminal.
set -eu

die() {
	echo "make sign: $*" >&2
	exit 1
}

if [ "${1:-}" = --plain-key ]; then
	[ $# = 4 ] || die "usage: sign.sh --plain-key KEY PASSPHRASE OUT"
	command -v openssl >/dev/null 2>&1 ||
		die "openssl not found: install Debian's openssl (tools/ensure-deps.sh sign)"
	[ -r "$2" ] || die "key $2 not readable (Debian's ovmf package ships the snakeoil key)"
	umask 077
	openssl pkey -in "$2" -passin "pass:$3" -out "$4.tmp" || die "openssl could not read $2"
	mv "$4.tmp" "$4"
	exit 0
fi
[ $# = 4 ] || die "usage: sign.sh KEY CERT IN OUT"
key=$1 cert=$2 in=$3 out=$4
command -v sbsign >/dev/null 2>&1 && command -v sbverify >/dev/null 2>&1 ||
	die "sbsign not found: install Debian's sbsigntool (tools/ensure-deps.sh sign)"
[ -r "$key" ] || die "KEY=$key: no such readable private key (PEM)"
[ -r "$cert" ] || die "CERT=$cert: no such readable certificate (PEM)"
[ -r "$in" ] || die "$in not found: run make first"
log=$out.log
rm -f "$out" "$out.tmp"
if ! sbsign --key "$key" --cert "$cert" --output "$out.tmp" "$in" >"$log" 2>&1; then
	cat "$log" >&2
	rm -f "$out.tmp" "$log"
	die "sbsign failed (is KEY=$key the private key of CERT=$cert?)"
fi
if ! sbverify --cert "$cert" "$out.tmp" >>"$log" 2>&1 || grep -qi warning "$log"; then
	cat "$log" >&2
	rm -f "$out.tmp" "$log"
	die "sbsign or sbverify found a problem with $in; $out not written"
fi
rm -f "$log"
mv "$out.tmp" "$out"
echo "make sign: $out signed with $key, verified against $cert"
