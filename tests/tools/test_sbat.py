# SPDX-License-Identifier: GPL-2.0-only
"""The image's .sbat section (boot/sbat.asm), which shim 15.3 and later require of every image
they start, read back from build/copykernel.efi with objdump as shim reads it: a section
named .sbat in the PE image, data (not code), its bytes CSV text with a NUL after it.

Oracle: shim's SBAT.md (rhboot/shim): every record has six fields (component name,
generation, vendor name, vendor package name, vendor version, vendor URL); the first record
is the SBAT format's own, "sbat,1,SBAT Version,sbat,1,<url of SBAT.md>"; a generation is a
positive integer. The version field must be the release the image says it is
(kernel/include/version.h). CK_BUILD=DIR takes the image from DIR instead of build/.
"""
import os
import re
import subprocess

import pytest

from conftest import ROOT

BUILD = os.environ.get("CK_BUILD", os.path.join(ROOT, "build"))
IMAGE = os.path.join(BUILD, "copykernel.efi")


def section(path, name):
    """The bytes of section @name of PE image @path (objdump -s), and its header flags."""
    assert os.path.exists(path), "%s is missing: make" % path
    head = subprocess.run(["objdump", "-h", path], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"^\s*\d+\s+%s\s+([0-9a-f]+)\s.*\n\s+(.*)$" % re.escape(name), head, re.M)
    assert m, "%s has no %s section:\n%s" % (path, name, head)
    dump = subprocess.run(["objdump", "-s", "-j", name, path], capture_output=True, text=True,
                          check=True).stdout
    data = b""
    for line in dump.splitlines():
        words = re.match(r"^ [0-9a-f]+ ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if words:
            data += bytes.fromhex(words.group(1).replace(" ", ""))
    return data[:int(m.group(1), 16)], m.group(2)


def records(data):
    assert data.endswith(b"\0") and b"\0" not in data[:-1], data
    text = data[:-1].decode("ascii")
    assert text.endswith("\n") and all(0x20 <= ord(c) < 0x7f for c in text if c != "\n")
    return [line.split(",") for line in text.splitlines()]


def version():
    with open(os.path.join(ROOT, "kernel", "include", "version.h")) as f:
        return re.search(r'#define CK_VERSION\s+"([^"]+)"', f.read()).group(1)


def test_the_image_has_shims_sbat_section():
    data, flags = section(IMAGE, ".sbat")
    assert "CONTENTS" in flags and "DATA" in flags and "CODE" not in flags, flags
    recs = records(data)
    assert all(len(r) == 6 for r in recs), recs
    assert recs[0] == ["sbat", "1", "SBAT Version", "sbat", "1",
                       "https://github.com/rhboot/shim/blob/main/SBAT.md"]
    ours = [r for r in recs[1:] if r[0] == "copykernel"]
    assert len(ours) == 1 and len(recs) == 2, recs
    name, generation, vendor, package, ver, url = ours[0]
    assert generation.isdigit() and int(generation) >= 1
    assert vendor and package and url and ver == version()


def test_the_signed_image_keeps_it():
    """sbsign copies sections as they are: the signed image (when make check or make sign
    made one) has the same .sbat."""
    signed = os.path.join(BUILD, "copykernel.signed.efi")
    if not os.path.exists(signed):
        pytest.skip("no %s: make sign (or make check) makes one" % signed)
    assert section(signed, ".sbat") == section(IMAGE, ".sbat")
