# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench-coverage.py on runs written here, whose coverage is counted by hand below
(the oracle is the arithmetic in each test's comment, not the tool), and on the ten stored
hosted rfc runs of tests/data/bench-aa/, whose 2 MiB intervals are known to be narrower
than the run-to-run change (issue 20 item 0.4).
"""
import glob
import json
import os

from conftest import ROOT, assert_clean, run_tool


def comparison(point, lo, hi, size=2 << 20, mode="cache-hot", ppm=None):
    c = {"schema": 1, "kind": "comparison", "machine": "t", "api": "folio_mc_copy",
         "size": size, "mode": mode, "baseline": "per-page", "candidate": "batched",
         "src_node": "node0", "dst_node": "node0", "ratio_x1000": point,
         "ci_lo_x1000": lo, "ci_hi_x1000": hi, "significant": True}
    if ppm:
        c.update(ratio_ppm=ppm[0], ci_lo_ppm=ppm[1], ci_hi_ppm=ppm[2])
    return c


def write_runs(tmp_path, runs):
    files = []
    for i, recs in enumerate(runs):
        f = tmp_path / ("run%d.jsonl" % i)
        f.write_text("".join(json.dumps(r) + "\n" for r in recs))
        files.append(str(f))
    return files


def test_one_run_apart_is_low(tmp_path):
    # 1.000 lies in run 1's [1.000, 1.030] (a bound counts) and not in run 2's; 1.010 in run
    # 0's [0.980, 1.020] only; 1.100 in neither: 2 of 6 ordered pairs.
    files = write_runs(tmp_path, [[comparison(1000, 980, 1020)], [comparison(1010, 1000, 1030)],
                                  [comparison(1100, 1080, 1120)]])
    r = run_tool("bench-coverage", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(4,))
    out = r.out.decode()
    assert "2/6 = 0.33  LOW" in out and "# 0 of 1 rows" in out, out


def test_all_covering_passes_and_rate_is_a_bound(tmp_path):
    runs = [[comparison(1000 + d, 950, 1050)] for d in (0, 10, 20, 30)]
    r = run_tool("bench-coverage", "--from", *write_runs(tmp_path, runs))
    assert_clean(r, "bench-coverage", allowed=(0,))
    assert "12/12 = 1.00" in r.out.decode()
    # Run 3's interval is moved off the others' points: 9 of 12 pairs, 0.75 >= 0.75 passes.
    runs[3] = [comparison(1030, 1025, 1050)]
    files = write_runs(tmp_path, runs)
    r = run_tool("bench-coverage", "--rate", "0.75", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(0,))
    assert "9/12 = 0.75" in r.out.decode(), r
    assert run_tool("bench-coverage", "--rate", "0.76", "--from", *files).status == 4


def test_ppm_preferred(tmp_path):
    # In thousandths both points are 1.000 inside [0.999, 1.001]; in parts per million the
    # first point, 1.000600, lies outside the second run's [0.999000, 1.000300].
    files = write_runs(tmp_path, [
        [comparison(1000, 999, 1001, ppm=(1000600, 999500, 1001000))],
        [comparison(1000, 999, 1001, ppm=(1000000, 999000, 1000300))]])
    r = run_tool("bench-coverage", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(4,))
    assert "1/2 = 0.50  LOW" in r.out.decode(), r


def test_rows_apart_by_the_candidates_data(tmp_path):
    # The patterns preset's two rows per primitive differ only in the candidate's source
    # (zero, constant): two rows, each 2/2, not one row holding the last of them.
    def pat(point, data):
        return dict(comparison(point, point - 5, point + 5), api="patterns",
                    src_pattern="random", candidate_src_pattern=data)
    runs = [[pat(1000, "zero"), pat(1100, "constant")]] * 2
    r = run_tool("bench-coverage", "--from", *write_runs(tmp_path, runs))
    assert_clean(r, "bench-coverage", allowed=(0,))
    out = r.out.decode()
    assert "per-page/batched (zero)" in out and "per-page/batched (constant)" in out, out
    assert "# 2 of 2 rows" in out, out


def test_size_filter_and_no_result(tmp_path):
    files = write_runs(tmp_path, [[comparison(1000, 990, 1010, size=256 << 10)]] * 2)
    r = run_tool("bench-coverage", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(1,))
    r = run_tool("bench-coverage", "--size", "256K", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(0,))
    assert "2/2 = 1.00" in r.out.decode(), r


def test_damaged_input(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"schema":1,"kind":"comparison","api":\n')
    r = run_tool("bench-coverage", "--from", str(f), str(f))
    assert_clean(r, "bench-coverage", allowed=(3,))


def test_stored_runs_are_narrower_than_their_spread():
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "bench-aa", "*.jsonl")))
    r = run_tool("bench-coverage", "--from", *files)
    assert_clean(r, "bench-coverage", allowed=(4,))
    rows = [l for l in r.out.decode().splitlines() if "/90 = " in l]
    assert len(rows) == 4 and all(l.endswith("LOW") for l in rows), r.out.decode()


def test_replication_and_rounds_counted_apart(tmp_path):
    # Three runs at 1.000, 1.010, 1.100. Their replication intervals [0.9, 1.2] hold every
    # other point: 6/6. Their rounds' CIs (the point +- 0.02) hold 1.000 in run 1's
    # [0.990, 1.030] and 1.010 in run 0's [0.980, 1.020] only: 2/6.
    runs = []
    for p in (1000, 1010, 1100):
        c = comparison(p, 900, 1200)
        c.update(interval="replication", placements=6, ci_lo_round_x1000=p - 20,
                 ci_hi_round_x1000=p + 20)
        runs.append([c])
    r = run_tool("bench-coverage", "--from", *write_runs(tmp_path, runs))
    assert_clean(r, "bench-coverage", allowed=(0,))
    out = r.out.decode()
    row = [l for l in out.splitlines() if l.startswith("folio_mc_copy")]
    assert len(row) == 1 and row[0].split()[-8:] == ["6", "0.300", "2/6", "=", "0.33",
                                                     "6/6", "=", "1.00"], out
