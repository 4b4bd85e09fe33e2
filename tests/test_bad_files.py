"""Hostile input files: every one is refused quickly with one clear error, never a traceback.

Each case writes a file in ``tmp_path`` and expects :class:`~exactpml.errors.InvalidFile`
(:class:`~exactpml.io.FileBoundExceeded` -- also a ``BoundExceeded`` -- when a bound is
exceeded) naming the file, the place (key path or line/column) and the problem; the command
line variant runs in a subprocess with a timeout and must exit with status 2 and print one
line on stderr.  Exact results of more than 4300 digits are printed in full.
"""

import json
import sys
from fractions import Fraction

from exactpml.core.bounds import big_integer_printing
from exactpml.distribution import Distribution
from exactpml.io import dump_json
from exactpml.logvalue import LogValue
from exactpml.mechanism import Mechanism

# --- printing exact values of more than 4300 digits ---------------------------------------

DENOMINATOR = 3 * 10**4999 + 1  # 5000 digits


def test_big_values_print_in_the_library_and_the_limit_is_restored():
    limit = sys.get_int_max_str_digits()
    small = Fraction(1, DENOMINATOR)
    mechanism = Mechanism({"a": {"yes": small, "no": 1 - small}, "b": {"yes": 1}})
    prior = Distribution({"a": small, "b": 1 - small})
    value = LogValue(1 / small)
    with big_integer_printing():
        digits = str(DENOMINATOR)
        with big_integer_printing():  # blocks nest
            assert sys.get_int_max_str_digits() == 0
        assert sys.get_int_max_str_digits() == 0
    assert sys.get_int_max_str_digits() == limit
    assert str(value) == f"log({digits})"
    assert repr(value) == f"LogValue(Fraction({digits}, 1))"
    assert digits in repr(mechanism) and digits in repr(prior)
    assert json.loads(dump_json({"value": value, "ratio": 1 / small})) == {
        "ratio": digits,
        "value": f"log({digits})",
    }
    assert sys.get_int_max_str_digits() == limit
