#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mkimg.py - build a bootable GPT disk image holding copykernel on an EFI system partition.

No root, no loop devices: the FAT file system is made in a file with mkfs.fat -C and filled
with mtools (mmd, mcopy); this script writes the protective MBR, both GPT headers and
partition arrays around it, and copies the file system in at 1 MiB.

    mkimg.py --efi build/copykernel.efi --cmdline boot/copykernel.cmdline --out disk.img

The ESP holds EFI/BOOT/BOOTX64.EFI (the removable-media path every UEFI firmware boots) and
EFI/BOOT/copykernel.cmdline, which the image reads when its LoadOptions are empty.
Also usable as a checker: mkimg.py --check disk.img verifies the GPT (signatures, CRCs, the
ESP type GUID) and prints the partition.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import uuid
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib.common import bounded  # noqa: E402

SECTOR = 512
ESP_TYPE = uuid.UUID("c12a7328-f81f-11d2-ba4b-00a0c93ec93b")
ENTRIES, ENTRY_SIZE = 128, 128
ENTRY_SECTORS = ENTRIES * ENTRY_SIZE // SECTOR      # 32
FIRST_LBA = 2048                                    # 1 MiB


def run(*argv):
    try:
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except FileNotFoundError:
        sys.exit("mkimg: %s not found: install the Debian packages dosfstools and mtools" %
                 argv[0])
    except subprocess.CalledProcessError as e:
        sys.exit("mkimg: %s failed: %s" % (" ".join(argv), e.stderr.decode().strip()))


def make_fat(path, size_bytes, efi, cmdline):
    run("mkfs.fat", "-C", "-F", "32", "-n", "COPYKERNEL", path, str(size_bytes // 1024))
    env_img = path
    run("mmd", "-i", env_img, "::/EFI", "::/EFI/BOOT")
    run("mcopy", "-i", env_img, efi, "::/EFI/BOOT/BOOTX64.EFI")
    if cmdline:
        run("mcopy", "-i", env_img, cmdline, "::/EFI/BOOT/copykernel.cmdline")


def header(current, backup, entries_lba, last_usable, disk_guid, entries_crc, total):
    fields = struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x00010000, 92, 0, 0, current,
                         backup, 34, last_usable, disk_guid.bytes_le, entries_lba, ENTRIES,
                         ENTRY_SIZE, entries_crc)
    crc = zlib.crc32(fields) & 0xffffffff
    fields = fields[:16] + struct.pack("<I", crc) + fields[20:]
    return fields.ljust(SECTOR, b"\0")


def build(args):
    total_bytes = args.size_mib << 20
    total = total_bytes // SECTOR
    last_usable = total - 1 - ENTRY_SECTORS - 1
    part_last = last_usable - (last_usable + 1) % 2048     # end on a 1 MiB boundary - 1
    esp_bytes = (part_last - FIRST_LBA + 1) * SECTOR
    name = os.path.basename(args.out)
    disk_guid = uuid.uuid5(uuid.NAMESPACE_URL, "copykernel-disk:" + name)
    part_guid = uuid.uuid5(uuid.NAMESPACE_URL, "copykernel-esp:" + name)

    entry = struct.pack("<16s16sQQQ72s", ESP_TYPE.bytes_le, part_guid.bytes_le, FIRST_LBA,
                        part_last, 0, "EFI system partition".encode("utf-16-le"))
    entries = entry.ljust(ENTRIES * ENTRY_SIZE, b"\0")
    ecrc = zlib.crc32(entries) & 0xffffffff

    mbr = bytearray(SECTOR)
    mbr[446:462] = struct.pack("<BBBBBBBBII", 0, 0, 2, 0, 0xee, 0xff, 0xff, 0xff, 1,
                               min(total - 1, 0xffffffff))
    mbr[510:512] = b"\x55\xaa"

    with tempfile.TemporaryDirectory(prefix="mkimg-") as tmp:
        fat = os.path.join(tmp, "esp.fat")
        make_fat(fat, esp_bytes, args.efi, args.cmdline)
        with open(args.out, "wb") as out:
            out.truncate(total_bytes)
            out.seek(0)
            out.write(mbr)
            out.write(header(1, total - 1, 2, last_usable, disk_guid, ecrc, total))
            out.write(entries)
            out.seek(FIRST_LBA * SECTOR)
            with open(fat, "rb") as f:
                while True:
                    chunk = f.read(1 << 20)
                    if not chunk:
                        break
                    out.write(chunk)
            out.seek((total - 1 - ENTRY_SECTORS) * SECTOR)
            out.write(entries)
            out.write(header(total - 1, 1, total - 1 - ENTRY_SECTORS, last_usable, disk_guid,
                             ecrc, total))
    print("mkimg: %s: %d MiB GPT disk, ESP at LBA %d..%d (FAT32)" % (args.out, args.size_mib,
                                                                     FIRST_LBA, part_last))


def check(path):
    """Re-read the image independently: both headers, their CRCs, the ESP entry."""
    problems = []
    with open(path, "rb") as f:
        data = f.read()
    total = len(data) // SECTOR
    if data[510:512] != b"\x55\xaa" or data[446 + 4] != 0xee:
        problems.append("no protective MBR")
    for lba in (1, total - 1):
        h = data[lba * SECTOR:lba * SECTOR + 92]
        if h[:8] != b"EFI PART":
            problems.append("no GPT header at LBA %d" % lba)
            continue
        crc = struct.unpack_from("<I", h, 16)[0]
        if zlib.crc32(h[:16] + b"\0\0\0\0" + h[20:92]) & 0xffffffff != crc:
            problems.append("header CRC wrong at LBA %d" % lba)
        elba, n, esz, ecrc = struct.unpack_from("<QIII", h, 72)
        ents = data[elba * SECTOR:elba * SECTOR + n * esz]
        if zlib.crc32(ents) & 0xffffffff != ecrc:
            problems.append("partition array CRC wrong (header at LBA %d)" % lba)
        if uuid.UUID(bytes_le=ents[:16]) != ESP_TYPE:
            problems.append("first partition is not an EFI system partition")
        first, last = struct.unpack_from("<QQ", ents, 32)
        if data[first * SECTOR + 82:first * SECTOR + 87] != b"FAT32":
            problems.append("no FAT32 file system at LBA %d" % first)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--efi")
    ap.add_argument("--cmdline", help="default command-line file to put beside the image")
    ap.add_argument("--out")
    # FAT32 needs 65525 clusters: 40 MiB at least.
    ap.add_argument("--size-mib", type=bounded(int, 40, 1 << 20, "a size in MiB"), default=64)
    ap.add_argument("--check", metavar="IMG")
    args = ap.parse_args()
    if args.check:
        problems = check(args.check)
        for p in problems:
            print("mkimg: check: " + p)
        print("mkimg: check: %s" % ("ok" if not problems else "FAILED"))
        return 1 if problems else 0
    if not args.efi or not args.out:
        ap.error("--efi and --out are needed to build")
    build(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
