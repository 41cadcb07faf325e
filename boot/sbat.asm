; SPDX-License-Identifier: GPL-2.0-only
;
; sbat.asm - the image's .sbat section: its SBAT record (shim's Secure Boot Advanced
; Targeting, rhboot/shim SBAT.md), which shim 15.3 and later require of every image they
; start. CSV, one component a line: name, generation, vendor, package, version, URL. The
; first line says the SBAT format's own version; the second names copykernel at generation 1
; (raised when a release fixes a Secure Boot flaw, so shim's revocations can refuse older
; ones); the version is kernel/include/version.h's CK_VERSION (tests/tools/test_sbat.py
; holds them equal); the project has no web page, so its URL field names the document that
; says how to boot it under Secure Boot. linker.ld gives the section a page of its own, the Makefile keeps it in
; the PE image.

section .sbat progbits alloc noexec nowrite align=1
	db "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md", 10
	db "copykernel,1,copykernel,copykernel,0.1,docs/user/secure-boot.md", 10
	db 0
