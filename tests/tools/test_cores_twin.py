# SPDX-License-Identifier: GPL-2.0-only
"""The hosted twin of the cores suite (build/ck-cores, host/cores/; `make check` builds it)
gives the image's verdicts: for the seed and rounds of a stored image run (the serial logs in
tests/data/cores-twin/, QEMU 7.2 TCG, -cpu max: the digests the emulated CPUs computed and the
image's known answers), every kernel the image ran and this machine can run must agree here
too, with the same known answer, seed and rounds. The stored answers come from another machine
and another execution of the code (TCG's emulated instructions), not from the twin. Its
records must hold to the schema, a bad --cores value must fail with status 2 and say why, and
a short rate run must check every timed round (wrong 0) and put each median inside its
interval. Nothing here asserts a time.

CK_BUILD=DIR takes the binary from DIR instead of build/.
"""
import json
import os
import subprocess

import pytest

from conftest import ROOT
from cklib import schema as ckschema

TWIN = os.path.join(os.environ.get("CK_BUILD", os.path.join(ROOT, "build")), "ck-cores")
DATA = os.path.join(ROOT, "tests", "data", "cores-twin")
LOGS = ["image-smp2-seed2a-rounds3.log", "image-smp4-default.log"]


def records(text, kind):
    out = []
    for line in text.splitlines():
        i = line.find('{"schema"')
        if i >= 0:
            rec = json.loads(line[i:])
            if rec.get("kind") == kind:
                out.append(rec)
    return out


def run(args):
    assert os.access(TWIN, os.X_OK), "%s is missing: make build/ck-cores" % TWIN
    return subprocess.run([TWIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=600)


@pytest.mark.parametrize("log", LOGS)
def test_the_twin_gives_the_image_verdicts(log, tmp_path):
    with open(os.path.join(DATA, log), encoding="utf-8", errors="replace") as f:
        image = {r["kernel"]: r for r in records(f.read(), "cores")}
    assert len(image) >= 12, "the stored run has a record per kernel: %s" % sorted(image)
    seeds = {(r["seed"], r["rounds"]) for r in image.values()}
    assert len(seeds) == 1, seeds
    seed, rounds = seeds.pop()
    js = tmp_path / "t.jsonl"
    p = run(["--cores", "seed:%s,rounds:%d" % (seed, rounds), "--verdict-only",
             "--json", str(js)])
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr
    twin = {r["kernel"]: r for r in records(js.read_text(), "cores")}
    compared = 0
    for name, im in sorted(image.items()):
        if im["verdict"] == "none":
            continue
        assert im["verdict"] == "agree", "the stored image run is a clean one: %s" % im
        assert name in twin, "the twin has no %s (cores/list.c lost it?)" % name
        tw = twin[name]
        assert (tw["seed"], tw["rounds"]) == (seed, rounds), tw
        if tw["verdict"] == "none":
            print("%s: this machine cannot run it: %s" % (name, tw.get("why_skipped")))
            continue
        assert tw["verdict"] == "agree" and tw["known"] == im["known"], (im, tw)
        assert tw["known_cpus"] == tw["cpus"] and tw["groups"] == 1 and not tw["named"], tw
        compared += 1
    # A kernel newer than the stored run has no stored answer: it must still agree here.
    for name in set(twin) - set(image):
        assert twin[name]["verdict"] in ("agree", "none"), twin[name]
    assert compared >= 8, "too few kernels compared with the image (%d)" % compared
    for line in ["# ck-cores: %d kernels judged, 0 left out by --cores, 0 failed: PASS"
                 % len(twin)]:
        assert line in p.stdout.splitlines(), p.stdout[-2000:]


def test_records_hold_to_the_schema_and_rates_check_every_round(tmp_path):
    js = tmp_path / "r.jsonl"
    p = run(["--cores", "kernels:integer+x87", "--runs", "3", "--ms", "1", "--json", str(js)])
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr
    n, problems = ckschema.check_text(ckschema.Schema(), js.read_text(), "r.jsonl")
    assert not problems and n, problems
    rates = records(js.read_text(), "cores-twin")
    assert {r["kernel"] for r in rates} == {r["kernel"] for r in
                                           records(js.read_text(), "cores")}
    for r in rates:
        if not r["measured"]:
            assert r["why_not"], r
            continue
        assert r["wrong"] == 0 and r["runs"] == 3 and r["rounds"] >= 1, r
        assert r["alone_lo"] <= r["alone_rps"] <= r["alone_hi"], r
        assert r["each_lo"] <= r["each_rps"] <= r["each_hi"], r
        assert r["shared_lo_x1000"] <= r["shared_x1000"] <= r["shared_hi_x1000"], r
        assert r["all_rps"] == r["each_rps"] * r["cpus"], r
    assert "copy_page_rep: cores=kernels: leaves the copy family out" in p.stdout


@pytest.mark.parametrize("args, says", [
    (["--cores", "seed:zz"], "--cores seed:zz:"),
    (["--cores", "kernels:fpga"], "--cores kernels:fpga:"),
    (["--runs", "2"], "--runs: '2' is not a number from 3 to 256"),
    (["--frobnicate", "1"], "usage: ck-cores"),
])
def test_bad_usage_says_why_with_status_2(args, says):
    p = run(args + ["--verdict-only"])
    assert p.returncode == 2 and says in p.stderr, (p.returncode, p.stderr)
    assert "PASS" not in p.stdout
