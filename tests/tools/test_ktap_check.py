# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests for tools/ktap-check.py (standard library only).

Run from the top of the tree:
    python3 -m unittest discover -s tests/tools -p 'test_ktap*.py'
"""
import io
import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# CK_TOOLS_DIR=DIR tests the tool in DIR instead (as the other tests in this directory do).
TOOL = pathlib.Path(os.environ.get("CK_TOOLS_DIR", ROOT / "tools")) / "ktap-check.py"
SAMPLE_LOG = ROOT / "tests" / "data" / "bench-sample.log"


def load_tool():
    sys.path.insert(0, str(ROOT / "tools"))
    from cklib import common
    return common.load_tool(TOOL.stem, str(TOOL.parent))


kc = load_tool()


def doc(text):
    """A test document written indented in this file, as bytes with LF endings."""
    return textwrap.dedent(text).lstrip("\n").encode()


# A document in the shape this project's kernel prints: suites four spaces in, each with
# "KTAP version 1" and "# Subtest:", and a parameterised case nested one level further.
PROJECT_STYLE = doc("""
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: copy
        1..3
        ok 1 copy_page_sweep
            KTAP version 1
            # Subtest: copy_mc_sizes
            1..2
            ok 1 4096
            ok 2 8192
        ok 2 copy_mc_sizes
        ok 3 nt_faults # SKIP no AVX2
    ok 1 copy
        KTAP version 1
        # Subtest: pages
        1..1
        # ktest/test_pages.c:40: FAIL: mismatch at offset 0
        not ok 1 clear_highpages
    not ok 2 pages
    # Totals: pass:4 fail:1 skip:1 total:6
    """)


class KtapCheckTest(unittest.TestCase):

    def run_check(self, data, strict=False, expect=None, indent=None):
        """Check `data` (bytes) through a file; returns (exit status, output lines)."""
        with tempfile.NamedTemporaryFile("wb", suffix=".log", delete=False) as f:
            f.write(data)
            path = f.name
        try:
            lines = kc.read_lines(path)
        finally:
            os.unlink(path)
        checker = kc.check(lines, strict=strict, expect=expect, indent=indent)
        out = io.StringIO()
        status = kc.report(checker, "t.log", out)
        return status, out.getvalue().splitlines()

    def assertValid(self, data, **kw):
        status, out = self.run_check(data, **kw)
        self.assertEqual(status, 0, "expected valid, got:\n" + "\n".join(out))
        self.assertRegex(out[-1],
                         r"^ktap-check: t\.log: OK \(\d+ tests, \d+ subtests, depth \d+\)$")
        return out

    def assertInvalid(self, data, pattern, **kw):
        status, out = self.run_check(data, **kw)
        self.assertEqual(status, 1, "expected invalid, got:\n" + "\n".join(out))
        self.assertRegex(out[-1], r"^ktap-check: t\.log: INVALID \(\d+ errors?, \d+ warnings?\)$")
        problems = [line for line in out[:-1] if ": warning: " not in line]
        self.assertTrue(any(pattern in line for line in problems),
                        "no error mentions %r:\n%s" % (pattern, "\n".join(out)))
        return out

    # -- valid documents ---------------------------------------------------------------

    def test_valid_flat(self):
        out = self.assertValid(doc("""
            KTAP version 1
            1..3
            ok 1 first
            not ok 2 second
            ok 3 - third
            """))
        self.assertEqual(out, ["ktap-check: t.log: OK (3 tests, 0 subtests, depth 1)"])

    def test_valid_nested_two_levels(self):
        out = self.assertValid(doc("""
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: alpha
                1..2
                ok 1 a1
                ok 2 a2
            ok 1 alpha
                KTAP version 1
                # Subtest: beta
                1..1
                not ok 1 b1
            # beta failed
            not ok 2 beta
            """))
        self.assertEqual(out[-1], "ktap-check: t.log: OK (2 tests, 3 subtests, depth 2)")

    def test_valid_nested_three_levels_two_space_indent(self):
        out = self.assertValid(doc("""
            KTAP version 1
            1..2
              KTAP version 1
              1..2
                KTAP version 1
                1..2
                not ok 1 leaf_one
                ok 2 leaf_two
              not ok 1 middle_one
              ok 2 middle_two # SKIP
            not ok 1 outer_one
            ok 2 outer_two
            """))
        self.assertEqual(out[-1], "ktap-check: t.log: OK (2 tests, 4 subtests, depth 3)")

    def test_valid_project_style(self):
        out = self.assertValid(PROJECT_STYLE)
        self.assertEqual(out[-1], "ktap-check: t.log: OK (2 tests, 6 subtests, depth 3)")

    def test_skip_directive_and_diagnostic_data(self):
        self.assertValid(doc("""
            KTAP version 1
            1..4
            ok 1 has_a_device # SKIP no device
            not ok 2 skipped_anyway # SKIP not here
            ok 3 check return code # rcode=0
            not ok 4 slow_one # TIMEOUT 30 seconds
            """), strict=True)

    def test_noise_before_and_after(self):
        self.assertValid(doc("""
            BdsDxe: loading Boot0001
            ok 7 this line is console noise, not a result
            KTAP version 2 is not at column zero here:  KTAP version 1
            KTAP version 1
            1..1
            ok 1 only
            # Totals: pass:1 fail:0 skip:0 total:1
            {"schema":1,"kind":"machine"}
            random trailing text
            """), strict=True)

    def test_crlf_and_cr_cr_lf_endings(self):
        body = ["KTAP version 1", "1..2", "    KTAP version 1", "    # Subtest: s",
                "    1..1", "    ok 1 inner", "ok 1 s", "ok 2 plain"]
        out = self.assertValid(("\r\r\n".join(["noise"] + body) + "\r\r\n").encode(), strict=True)
        self.assertEqual(out[-1], "ktap-check: t.log: OK (2 tests, 1 subtests, depth 2)")
        self.assertValid(("\r\n".join(body) + "\r\n").encode(), strict=True)
        self.assertValid("\n".join(body).encode(), strict=True)    # no final newline

    def test_tap14_subtest_header_without_version_line(self):
        self.assertValid(doc("""
            TAP version 14
            1..1
                # Subtest: suite
                1..1
                ok 1 case
            ok 1 suite
            """))

    def test_empty_plan_is_a_warning_only(self):
        data = doc("""
            KTAP version 1
            1..0
            """)
        out = self.assertValid(data)
        self.assertIn("warning: plan 1..0", out[0])
        self.assertInvalid(data, "plan 1..0", strict=True)

    def test_unknown_lines_warn_by_default_and_fail_with_strict(self):
        data = doc("""
            KTAP version 1
            1..1
            mce: CPU0: machine check event logged
                KTAP version 1
                # Subtest: s
                1..1
            some unrelated kernel message
                ok 1 c
            ok 1 s
            """)
        out = self.assertValid(data)
        self.assertEqual(sum(": warning: " in line for line in out), 2)
        self.assertInvalid(data, "t.log:3: an unknown line", strict=True)

    def test_project_sample_log(self):
        status, out = self.run_check(SAMPLE_LOG.read_bytes())
        self.assertEqual(status, 0, "\n".join(out))

    def test_expect_tests(self):
        data = doc("""
            KTAP version 1
            1..2
            ok 1 a
            ok 2 b
            """)
        self.assertValid(data, expect=2)
        self.assertInvalid(data, "--expect-tests says 3", expect=3)

    # -- invalid documents -------------------------------------------------------------

    def test_name_with_hash(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
            ok 1 copy#page
            """), "'#' inside the test name 'copy#page'")

    def test_directive_without_space_after_hash(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
            ok 1 copy #SKIP
            """), "must be followed by a space")

    def test_lower_case_skip(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
            ok 1 copy # skip no device
            """), "directive 'skip' must be written 'SKIP'")

    def test_wrong_numbering(self):
        out = self.assertInvalid(doc("""
            KTAP version 1
            1..3
            ok 1 a
            ok 3 c
            ok 2 b
            """), "t.log:4: expected test number 2, found 3")
        self.assertTrue(any("t.log:5: expected test number 4, found 2" in line for line in out))

    def test_numbering_must_start_at_one_in_subtests(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                1..1
                ok 0 inner
            ok 1 outer
            """), "expected test number 1, found 0")

    def test_missing_plan(self):
        self.assertInvalid(doc("""
            KTAP version 1
            ok 1 a
            ok 2 b
            """), "result line before any plan line of the top level")

    def test_missing_subtest_plan(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                ok 1 a
            ok 1 s
            """), "before any plan line of subtest 's'")

    def test_trailing_plan(self):
        self.assertInvalid(doc("""
            KTAP version 1
            ok 1 a
            1..1
            """), "before any plan line")

    def test_plan_mismatch_too_few(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..3
            ok 1 a
            ok 2 b
            """), "after 2 of the 3 top-level results")

    def test_plan_mismatch_too_many_in_subtest(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..1
                ok 1 a
                ok 2 b
            ok 1 s
            """), "goes beyond its plan 1..1")

    def test_plan_mismatch_too_few_in_subtest(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..3
                ok 1 a
            ok 1 s
            """), "subtest 's' (opened at line 3) ended after 1 of the 3 results")

    def test_missing_subtest_result_before_next_subtest(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: first
                1..1
                    KTAP version 1
                    # Subtest: deep
                    1..1
                    ok 1 leaf
            ok 1 first
            ok 2 second
            """), "subtest 'deep' (opened at line 6) has no result line before this line")

    def test_missing_subtest_result_at_end_of_input(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..2
                ok 1 a
                ok 2 b
            """), "subtest 's' (opened at line 3) has no result line before the end of the input")

    def test_crash_in_the_middle(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..2
            ok 1 a
            Kernel panic - not syncing: VFS: Unable to mount root fs
            ok 2 b
            """), "the kernel log's end marker after 1 of the 2")

    def test_subtest_result_name_mismatch(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: alpha
                1..1
                ok 1 a
            ok 1 beta
            """), "result name 'beta' does not match '# Subtest: alpha'")

    def test_empty_name(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..2
            ok 1
            ok 2 # SKIP nothing to name
            """), "t.log:3: empty test name")
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
            ok 1 - 
            """), "empty test name")

    def test_bad_indentation_three_spaces(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                KTAP version 1
                1..1
               ok 1 inner
            ok 1 outer
            """), "result line at indentation 3 matches no open level")

    def test_bad_indentation_inconsistent_step(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..2
                KTAP version 1
                1..1
                ok 1 a
            ok 1 x
              KTAP version 1
              1..1
              ok 1 b
            ok 2 y
            """), "this document indents each level by 4")

    def test_bad_indentation_forced_step(self):
        self.assertInvalid(PROJECT_STYLE, "indents each level by 2", indent=2)

    def test_result_deeper_without_header(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                ok 1 stray
            ok 1 top
            """), "deeper than the top level")

    def test_tab_indentation(self):
        self.assertInvalid(b"KTAP version 1\n1..1\n\tKTAP version 1\n\t1..1\n\tok 1 a\nok 1 b\n",
                           "indented with a tab")

    def test_ktap_subtest_without_version_line(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
                # Subtest: suite
                1..1
                ok 1 case
            ok 1 suite
            """), "has no 'KTAP version 1' line")

    def test_unsupported_version(self):
        self.assertInvalid(doc("""
            KTAP version 2
            1..1
            ok 1 a
            """), "unsupported version line 'KTAP version 2'")

    def test_no_document(self):
        out = self.assertInvalid(b"[    0.1] KTAP version 1\n[    0.1] 1..0\n", "no KTAP document")
        self.assertIn("line 1 has one at column 10", out[0])

    def test_malformed_plan_and_result(self):
        self.assertInvalid(doc("""
            KTAP version 1
            1..x
            ok 1 a
            """), "malformed plan line '1..x'")
        self.assertInvalid(doc("""
            KTAP version 1
            1..1
            ok one a
            """), "malformed result line")

    def test_lines_after_the_end_that_look_like_results(self):
        data = doc("""
            KTAP version 1
            1..1
            ok 1 a
            ok 2 b
            """)
        out = self.assertValid(data)
        self.assertTrue(any("after the document ended" in line for line in out))
        self.assertInvalid(data, "after the document ended", strict=True)

    # -- the command line --------------------------------------------------------------

    def cli(self, *args, stdin=b""):
        return subprocess.run([sys.executable, str(TOOL)] + list(args), input=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)

    def test_cli_stdin_and_exit_status(self):
        good = self.cli("-", stdin=b"KTAP version 1\n1..1\nok 1 a\n")
        self.assertEqual(good.returncode, 0)
        self.assertEqual(good.stdout.decode(),
                         "ktap-check: <stdin>: OK (1 tests, 0 subtests, depth 1)\n")
        bad = self.cli("-", "--expect-tests", "2", stdin=b"KTAP version 1\n1..1\nok 1 a\n")
        self.assertEqual(bad.returncode, 1)
        self.assertIn(b"INVALID", bad.stdout)

    def test_cli_usage_and_io_errors(self):
        for args in ((), ("--expect-tests", "-1", "-"), ("--indent", "3", "-"),
                     ("/nonexistent/ktap.log",), (str(ROOT),)):
            r = self.cli(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertNotIn(b"Traceback", r.stderr, args)

    def test_cli_binary_garbage_never_tracebacks(self):
        r = self.cli("-", stdin=bytes(range(256)) * 4 + b"\nKTAP version 1\n1..1\nok 1 \xff\xfe\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn(b"Traceback", r.stderr)


if __name__ == "__main__":
    unittest.main()
