# SPDX-License-Identifier: GPL-2.0-only
"""secureboot_tests.py - UEFI Secure Boot under Debian's enforcing test firmware
(tools/ck-run.py --secure-boot: OVMF_CODE_4M.snakeoil.fd with a copy of
OVMF_VARS_4M.snakeoil.fd, whose PK, KEK and db hold the snakeoil certificate): `make sign`'s
image runs and says Secure Boot was on; the unsigned image and a signed one with one byte
changed are refused by the firmware, which then waits for a key forever, so the runner stops
on the firmware's "No bootable option" line (status STOPPED) instead of a time limit.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from qemu_boot import PASS, ROOT, STOPPED, check_ktap

CERT = "/usr/share/ovmf/PkKek-1-snakeoil.pem"
VARS = "/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd"
# The firmware gives up on every boot option, then waits for a key (BdsDxe's own words).
GAVE_UP = r"^BdsDxe: No bootable option or device was found"
# The image's boot option, refused at LoadImage: EDK2 answers Access Denied for an image that
# fails verification under the deny-execute policy.
REFUSED = r'^BdsDxe: failed to load Boot\d+ "UEFI QEMU HARDDISK[^"]*" from .*: Access Denied$'
ON = r"^Secure Boot: on \(enforcing\); UEFI variables SecureBoot 1, SetupMode 0$"


def signed_image(b):
    path = os.path.join(os.path.dirname(b.image), "copykernel.signed.efi")
    b.expect(os.path.exists(path), "%s missing: make sign" % path)
    return path if os.path.exists(path) else None


def sbverify(path):
    p = subprocess.run(["sbverify", "--cert", CERT, path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def t_signed(b):
    """The signed image: sbverify accepts it without a warning, the enforcing firmware starts
    it, the run passes, and the console and the summary stored in the variables say on."""
    image = signed_image(b)
    if not image:
        return
    rc, out = sbverify(image)
    b.expect(rc == 0 and "warning" not in out.lower(), "sbverify: %s" % out.strip())
    with tempfile.TemporaryDirectory(prefix="ck-sb-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy(VARS, vars_fd)
        b.run("exit=qemu tests=cpu", runner_args=["--image", image, "--secure-boot",
                                                  "--vars", vars_fd])
        b.status_is(PASS)
        b.has(r'^BdsDxe: starting Boot\d+ "UEFI QEMU HARDDISK')
        b.has(ON)
        check_ktap(b)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--ovmf-vars", vars_fd], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        b.outputs.append(("ck-results --ovmf-vars", p.stdout))
        if b.expect(p.returncode == 0, "ck-results failed: " + p.stderr.strip()):
            got = json.loads(p.stdout).get("secure_boot")
            b.expect(got == {"mode": "on", "enforced": True, "secure_boot": 1,
                             "setup_mode": 0}, "summary's secure_boot: %r" % got)


def refused(b, image):
    """Boot @image under the enforcing firmware: it must be refused before it runs."""
    b.run("exit=qemu tests=none", runner_args=["--image", image, "--secure-boot",
                                               "--stop-on", GAVE_UP])
    b.status_is(STOPPED)
    b.has(REFUSED)
    b.lacks(r"^copykernel: boot:", "the image ran")


def t_unsigned_refused(b):
    """make's own image, unsigned: sbverify finds no signature; the firmware refuses it."""
    rc, out = sbverify(b.image)
    b.expect(rc != 0, "sbverify accepted the unsigned image: %s" % out.strip())
    refused(b, b.image)


def text_section(data):
    """(file offset, size) of .text's raw data in the PE image @data (PE/COFF: e_lfanew at
    0x3c; section headers after the optional header, 40 bytes each, SizeOfRawData at +16 and
    PointerToRawData at +20)."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    nsect, opt = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data,
                                                                                pe + 20)[0]
    for i in range(nsect):
        h = pe + 24 + opt + 40 * i
        if data[h:h + 8].rstrip(b"\0") == b".text":
            size, ptr = struct.unpack_from("<II", data, h + 16)
            return ptr, size
    raise ValueError("no .text section")


def t_tampered_refused(b):
    """The signed image with one byte in the middle of .text changed: its signature no longer
    matches (sbverify says so too), and the firmware refuses it."""
    image = signed_image(b)
    if not image:
        return
    with open(image, "rb") as f:
        data = bytearray(f.read())
    ptr, size = text_section(data)
    data[ptr + size // 2] ^= 0x01
    with tempfile.TemporaryDirectory(prefix="ck-sb-") as tmp:
        bad = os.path.join(tmp, "tampered.efi")
        with open(bad, "wb") as f:
            f.write(data)
        rc, out = sbverify(bad)
        b.expect(rc != 0, "sbverify accepted the changed image: %s" % out.strip())
        refused(b, bad)
