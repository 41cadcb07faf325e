# SPDX-License-Identifier: GPL-2.0-only
"""cklib.records.fixed and ratio_text: the tables made from records round half away from
zero, as the image's and the hosted build's tables do (issue 20: 0.987 was printed 0.98x and
[0.990, 1.019] as [0.99, 1.01]). The oracle is Python's decimal module (ROUND_HALF_UP is
half away from zero), not the function under test.
"""
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given, strategies as st

from conftest import examples
from cklib.records import fixed, ratio_text


def oracle(value, scale, decimals):
    q = Decimal(value) / Decimal(scale)
    return str(q.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))


def test_issue_values():
    c = {"ratio_x1000": 987, "ci_lo_x1000": 990, "ci_hi_x1000": 1019}
    assert ratio_text(c) == "0.99x [0.99, 1.02]"
    assert fixed(985, 1000) == "0.99" and fixed(995, 1000) == "1.00"
    assert fixed(3505, 1000) == "3.51" and fixed(49, 100, 0) == "0"


def test_ppm_preferred():
    """From parts per million when a record has them: 0.98449 is 0.98, not 0.985 -> 0.99."""
    c = {"ratio_x1000": 984, "ci_lo_x1000": 980, "ci_hi_x1000": 990,
         "ratio_ppm": 984490, "ci_lo_ppm": 979500, "ci_hi_ppm": 989999}
    assert ratio_text(c) == "0.98x [0.98, 0.99]"


@examples(300)
@given(st.integers(min_value=-10 ** 12, max_value=10 ** 12),
       st.sampled_from([1, 10, 100, 1000, 10 ** 6]), st.integers(min_value=0, max_value=3))
def test_fixed_is_half_away_from_zero(value, scale, decimals):
    sign = "-" if value < 0 else ""
    assert fixed(value, scale, decimals) == sign + oracle(abs(value), scale, decimals)
