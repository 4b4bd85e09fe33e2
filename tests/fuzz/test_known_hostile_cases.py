"""The referee's known-hostile calls (issue 21's sweep), run every time, each in a forked child
under 2 s of CPU and a 1 GiB memory cap (``fuzz_isolation``).

Each must end in a value whose ``repr``/``str`` work, or an exactpml error with a short
printable message (every case passes: the temporary list of known failures is gone).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import sympy
from fuzz_isolation import Outcome, run_isolated

from exactpml import (
    DatabaseMechanism,
    Distribution,
    Mechanism,
    certify,
    exact,
    notions,
    qif,
    testing,
)
from exactpml.cli import main as exactpml_main
from exactpml.render import to_plain

EXP_TOWER = "exp(-exp(exp(100)))"
UNIFORM = Distribution({"a": "1/3", "b": "1/3", "c": "1/3"})
SKEWED = Distribution({"a": "1/3", "b": "2/3"})
CHANNEL = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
RR = notions.privacy_loss_distribution(
    Distribution({0: "3/4", 1: "1/4"}), Distribution({0: "1/4", 1: "3/4"})
)
RR_DB = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
#: Privacy-loss distributions with three losses log(P/3), log(P/6), log(P/(3(P-3))) for a
#: different prime P each: on no common lattice, so the atoms of a composition never merge.
NON_LATTICE = [
    notions.privacy_loss_distribution(
        Distribution({0: "1/3", 1: "1/3", 2: "1/3"}),
        Distribution({0: Fraction(1, prime), 1: Fraction(2, prime), 2: Fraction(prime - 3, prime)}),
    )
    for prime in (5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59)
]
FIVE_THOUSAND_DIGITS = 3 * 10**4999 + 7
HUGE = "1" + "0" * 5000  # 10**5000 written out


def _power_chain(repetitions: int) -> str:
    return "(1000003/1000033)**5000" + "*(1000037/1000039)**2500/(1000037/1000039)**2500" * (
        repetitions
    )


def _entry(text: str) -> Callable[[], Any]:
    return lambda: Distribution({"a": text, "b": "1/2"})


def _compose_chain(links: int) -> Any:
    composed = NON_LATTICE[0]
    for other in NON_LATTICE[1 : links + 1]:
        composed = composed.compose(other)
    return composed


def _leakage_on_a_fifo() -> tuple[int, str]:
    folder = tempfile.mkdtemp(prefix="epml")
    try:
        fifo = Path(folder) / "pipe.json"
        os.mkfifo(fifo)
        return _cli(["leakage", str(fifo)])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _cli(arguments: list[str]) -> tuple[int, str]:
    """Run ``exactpml ARGS``; the exit status and stderr (a value the test then checks)."""
    output, errors = StringIO(), StringIO()
    with redirect_stdout(output), redirect_stderr(errors):
        status = exactpml_main(arguments)
    return status, errors.getvalue()


def _list_attribute(x: object) -> object:
    return [x]


#: id -> the call.
CASES: dict[str, Callable[[], Any]] = {
    # exp towers whose sum is exactly 1
    "Distribution exp(-exp(exp(100))) + its complement": lambda: Distribution(
        {"a": EXP_TOWER, "b": f"1-{EXP_TOWER}"}
    ),
    "Mechanism row exp(-exp(exp(100))) + its complement": lambda: Mechanism(
        {"x": {"a": EXP_TOWER, "b": f"1-{EXP_TOWER}"}}
    ),
    # long products of powers that cancel
    **{
        f"exact power chain, {n} cancelling factors ({len(_power_chain(n))} chars)": (
            lambda n=n: exact(_power_chain(n))
        )
        for n in (1, 4, 13, 160)
    },
    # Rényi orders
    "qif.renyi_entropy(U, 10**6)": lambda: qif.renyi_entropy(UNIFORM, 10**6),
    "qif.renyi_entropy(U, 10**12)": lambda: qif.renyi_entropy(UNIFORM, 10**12),
    'qif.renyi_entropy(U, "1e999")': lambda: qif.renyi_entropy(UNIFORM, "1e999"),
    # a result past Python's 4300-digit limit prints through exactpml's printer (plain str()
    # of a Fraction or a sympy expression is Python's and sympy's, limited by Python)
    "to_plain(qif.renyi_entropy(D, 20001/2))": lambda: to_plain(
        qif.renyi_entropy(SKEWED, Fraction(20001, 2))
    ),
    "qif.sibson_mutual_information at order 10**4": lambda: qif.sibson_mutual_information(
        CHANNEL, SKEWED, 10**4
    ),
    "qif.sibson_mutual_information at order 10**6": lambda: qif.sibson_mutual_information(
        CHANNEL, SKEWED, 10**6
    ),
    "notions.renyi_divergence at order 10**4": lambda: notions.renyi_divergence(
        SKEWED, Distribution({"a": "1/2", "b": "1/2"}), 10**4
    ),
    "notions.renyi_divergence at order 10**5": lambda: notions.renyi_divergence(
        SKEWED, Distribution({"a": "1/2", "b": "1/2"}), 10**5
    ),
    "notions.rdp_to_dp_epsilon at order 1 + 10**-8": lambda: notions.rdp_to_dp_epsilon(
        1, order=1 + Fraction(1, 10**8), delta="1/10"
    ),
    # accounting sizes
    "randomized response self_compose(3*10**4).delta_for_epsilon(1)": lambda: RR.self_compose(
        3 * 10**4
    ).delta_for_epsilon(1),
    "notions.basic_composition(exp_epsilon=3, k=10**12)": lambda: notions.basic_composition(
        exp_epsilon=3, k=10**12
    ),
    "notions.optimal_composition(1, k=10**12, i=5)": lambda: notions.optimal_composition(
        1, k=10**12, i=5
    ),
    'notions.gaussian_calibration(tolerance="1e-9999")': lambda: notions.gaussian_calibration(
        1, delta="1/10", tolerance="1e-9999"
    ),
    'notions.gaussian_delta_for_epsilon(sigma="1e-9999")': lambda: (
        notions.gaussian_delta_for_epsilon("1e-9999", 1)
    ),
    'notions.gaussian_delta_for_epsilon(sigma="1e9999")': lambda: (
        notions.gaussian_delta_for_epsilon("1e9999", 1)
    ),
    "qif.GainFunction.identity(range(10**6))": lambda: qif.GainFunction.identity(range(10**6)),
    "a chain of 14 non-lattice privacy-loss compose calls": lambda: _compose_chain(14),
    # entries
    "a 5000-digit decimal in a Distribution": lambda: Distribution(
        {"a": "0." + "2" * 5000, "b": "1 - 0." + "2" * 5000}
    ),
    "entry factorial(10**5000)": _entry(f"factorial({HUGE})"),
    "entry 2**(10**5000)": _entry(f"2**({HUGE})"),
    "entry log(-10**5000)": _entry(f"log(-{HUGE})"),
    "entry 1e-<50000-digit exponent>": _entry("1e-" + "9" * 50_000),
    'entry "١/٢" (Arabic-Indic digits)': _entry("١/٢"),
    'entry "１/2" (a fullwidth one)': _entry("１/2"),
    'exact("١٢")': lambda: exact("١٢"),
    'exact("１")': lambda: exact("１"),
    "certify.sign(exp(10**5000) - 1)": lambda: certify.sign(
        sympy.exp(sympy.Integer(10**5000), evaluate=False) - 1
    ),
    # parameters far out
    'delta_for_epsilon(epsilon="1e9999")': lambda: notions.delta_for_epsilon(RR_DB, "1e9999"),
    'is_differentially_private(epsilon="1e9999")': lambda: notions.is_differentially_private(
        RR_DB, "1e9999"
    ),
    'qif.shannon_capacity(tolerance="1e-9999")': lambda: qif.shannon_capacity(CHANNEL, "1e-9999"),
    'qif.maximal_alpha_leakage(tolerance="1e-9999")': lambda: qif.maximal_alpha_leakage(
        CHANNEL, 2, tolerance="1e-9999"
    ),
    'qif.maximal_alpha_leakage(order="1e999")': lambda: qif.maximal_alpha_leakage(CHANNEL, "1e999"),
    "qif.maximal_alpha_leakage(order=1 + 10**-30)": lambda: qif.maximal_alpha_leakage(
        CHANNEL, 1 + Fraction(1, 10**30)
    ),
    'qif.maximal_alpha_leakage(order="1 + 1e-30")': lambda: qif.maximal_alpha_leakage(
        CHANNEL, "1 + 1e-30"
    ),
    # printing and helpers
    "testing.assert_exact_equal on two 5000-digit values": lambda: testing.assert_exact_equal(
        FIVE_THOUSAND_DIGITS, FIVE_THOUSAND_DIGITS + 1
    ),
    'to_plain(exact("1e10000"))': lambda: to_plain(exact("1e10000")),
    'exact("1e10000")': lambda: exact("1e10000"),
    "qif.guessing_ratio with an attribute returning a list": lambda: qif.guessing_ratio(
        CHANNEL, SKEWED, _list_attribute
    ),
    # the command line
    "exactpml leakage FIFO": _leakage_on_a_fifo,
}

#: Cases where only an exactpml error is right: a digit other than 0-9 is not read as one
#: (a value would be a silent reinterpretation of the text).
MUST_REFUSE = frozenset(
    {
        'entry "١/٢" (Arabic-Indic digits)',
        'entry "１/2" (a fullwidth one)',
        'exact("١٢")',
        'exact("１")',
    }
)

#: Cases whose function raises by contract (assert_exact_equal: AssertionError).
DOCUMENTED: dict[str, tuple[type[BaseException], ...]] = {
    "testing.assert_exact_equal on two 5000-digit values": (AssertionError,),
}


def test_every_special_case_names_a_case() -> None:
    assert MUST_REFUSE <= set(CASES) and set(DOCUMENTED) <= set(CASES)


def _passes(case: str, outcome: Outcome) -> bool:
    if case in MUST_REFUSE:
        return outcome.kind == "exactpml error"
    return outcome.acceptable


@pytest.mark.parametrize("case", list(CASES))
def test_a_known_hostile_call_gives_a_value_or_an_exactpml_error(case: str) -> None:
    outcome = run_isolated(CASES[case], documented=DOCUMENTED.get(case, ()))
    assert _passes(case, outcome), f"{case}: {outcome}"
    if case == "exactpml leakage FIFO":
        assert outcome.detail.startswith("tuple: (2, 'exactpml: error: ")
