"""Peer audit (issue 14): floating-point DP accountants against exactpml's exact values.

Run ``python benchmarks/bench_peers.py`` (``--quick`` for k in {1, 10} and three δ targets;
``--help`` for options).  Peers, each used if importable (``pip install -e '.[peers]'``):

* **dp_accounting** PLD library: pessimistic and optimistic estimates (discretisation 10^-4),
  and connect-the-dots where the library offers it (discrete Laplace); its RDP accountant;
* **prv_accountant**: ``PRVAccountant`` (its ``upper`` is the claimed bound, its
  ``estimate`` is reported as an estimate);
* **autodp**: ``RandresponseMechanism`` / ``PureDP_Mechanism`` composed by ``Composition``
  (RDP), ``get_approxDP(δ)``;
* **OpenDP**: its pure-DP privacy maps (randomized response, discrete Laplace), composed by
  ``make_composition`` (basic composition): an ε claimed for δ = 0.

Mechanisms (one record, neighbours differ in it), k-fold composition, k in {1, 10, 100, 1000}:

* ``rr``: binary randomized response, keep probability 3/4 (e^ε0 = 3);
* ``dlap``: a counting query with two-sided geometric (discrete Laplace) noise, α = 1/2
  (exactpml ``QueryMechanism``, ``GeometricNoise("1/2")``; e^ε0 = 2);
* ``pure``: the dominating pair of pure ε0-DP with e^ε0 = 11/10 (Kairouz, Oh, Viswanath).

**The exact side** is exactpml: δ(ε) and ε(δ) of the composed mechanism, exact rationals and
logs of rationals.  A peer gets floats: δ targets 10^-2 ... 10^-9 and ε targets are floats,
and the exact value is computed at *exactly* that float (``Fraction(x)``), so both sides
answer the same question.  A parameter that is irrational (ε0 = log 3, log 2, log(11/10)) is
given to a peer as the least float >= it (certified), so the peer's mechanism is at most as
private as the exact one: a value the peer claims as an upper bound that lies below the
exact value is then a genuine soundness violation of the peer.

**Decisions are certified.**  A peer's float is an exact dyadic rational; it is compared with
the exact value by ``exactpml.certify.compare`` (exact for rationals, Arb balls for logs),
never by float comparison.  Relative errors are computed from a certified 30-digit decimal
of the exact value (reporting only).

``--dpsgd`` (issue 25): the same audit on DP-SGD, where no exact value exists but a certified
bracket does: ``exactpml.notions.dpsgd_epsilon`` (width 1/100) on the grid
q in {0.001, 0.01, 0.1}, σ in {0.5, 1, 2}, k in {10^2, 10^3, 10^4}, δ in {1e-5, 1e-8}
(``--grid-ks`` etc. to shrink it), against dp-accounting (PLD connect-the-dots pessimistic and
optimistic at 10^-4, RDP), prv-accountant (its reported [lower, upper] at eps_error 0.01),
Opacus (RDP and PRV accountants) and autodp (RDP; characteristic-function accountant).  Every
claimed upper bound below the certified lower end, and every claimed lower bound above the
certified upper end, is a VIOLATION printed with a reproducer; an RDP value below the lower
end would be a bug of exactpml's (RDP bounds are sound).  Float answers are read as the exact
dyadic rationals they are and compared with the bracket's rationals exactly.
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import math
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from exactpml import DatabaseMechanism, LogValue, certify
from exactpml.database import DatabaseSpace
from exactpml.notions import (
    PrivacyLossDistribution,
    composition_delta_for_epsilon,
    composition_epsilon_for_delta,
)
from exactpml.structured import CountingQuery, GeometricNoise, QueryMechanism

CASES = ("rr", "dlap", "pure")
RATIOS = {"rr": Fraction(3), "dlap": Fraction(2), "pure": Fraction(11, 10)}  # e^ε0
CASE_TEXT = {
    "rr": "randomized response p=3/4",
    "dlap": "discrete Laplace α=1/2 (count)",
    "pure": "pure ε0=log(11/10) dominating pair",
}
KS = (1, 10, 100, 1000)
DELTAS = tuple(10.0**-j for j in range(2, 10))  # the floats 1e-2 ... 1e-9


# --- the exact side ------------------------------------------------------------------------
def exact_mechanism(case: str) -> Any:
    """The exact 1-record mechanism of ``case`` (exactpml objects; no float anywhere)."""
    if case == "rr":
        ratio = RATIOS["rr"]
        keep = ratio / (1 + ratio)
        return DatabaseMechanism({(0,): {0: keep, 1: 1 - keep}, (1,): {0: 1 - keep, 1: keep}})
    if case == "dlap":
        space = DatabaseSpace([0, 1], 1)
        return QueryMechanism(space, CountingQuery({0: 0, 1: 1}), noise=GeometricNoise("1/2"))
    if case == "pure":
        return PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=RATIOS["pure"])
    raise ValueError(f"unknown case {case!r}")


@functools.cache
def _composed_pure(k: int) -> PrivacyLossDistribution:
    return exact_mechanism("pure").self_compose(k)


def exact_delta(case: str, k: int, exp_epsilon: object) -> Any:
    """δ(ε) of the k-fold composition, exact (a Fraction, or a closed form for irrational e^ε)."""
    if case == "pure":
        return _composed_pure(k).delta_for_epsilon(exp_epsilon=exp_epsilon)
    return composition_delta_for_epsilon(exact_mechanism(case), k, exp_epsilon=exp_epsilon).value


def exact_epsilon(case: str, k: int, delta: object) -> LogValue:
    """ε(δ) of the k-fold composition, exact: the log of a rational for rational δ."""
    if case == "pure":
        return _composed_pure(k).epsilon_for_delta(delta)
    return composition_epsilon_for_delta(exact_mechanism(case), k, delta).value


def exact_delta_at_float(case: str, k: int, epsilon: float) -> Any:
    """δ at exactly the float ε a peer was given: e^ε with ε = Fraction(epsilon)."""
    return exact_delta(case, k, sympy.exp(sympy.Rational(Fraction(epsilon))))


def float_at_least(value: sympy.Expr) -> float:
    """The least float >= ``value`` (certified): how an irrational parameter goes to a peer."""
    candidate = float(certify.decimal(value, 30))
    while certify.compare(Fraction(candidate), value) < 0:
        candidate = math.nextafter(candidate, math.inf)
    while certify.compare(Fraction(math.nextafter(candidate, -math.inf)), value) >= 0:
        candidate = math.nextafter(candidate, -math.inf)
    return candidate


def certified_order(peer: float, exact: Any) -> int:
    """sign(peer - exact), certified (peer read as the exact dyadic rational it is)."""
    if math.isinf(peer):
        return 1 if peer > 0 else -1
    expression = exact.to_sympy() if isinstance(exact, LogValue) else exact
    if isinstance(exact, LogValue) and exact.is_infinite:
        return -1
    return certify.compare(Fraction(peer), expression)


def relative_error(peer: float, exact: Any) -> float:
    """|peer - exact| / exact from a certified 30-digit decimal of exact (reporting only)."""
    expression = exact.to_sympy() if isinstance(exact, LogValue) else exact
    value = Fraction(certify.decimal(expression, 30))
    if math.isinf(peer) or math.isnan(peer):
        return math.inf
    if value == 0:
        return math.inf if peer != 0 else 0.0
    return float(abs(Fraction(peer) - value) / abs(value))


# --- the peers -----------------------------------------------------------------------------
@dataclass
class Variant:
    """One way of running a peer: name, whether it claims an upper bound, and its calls."""

    peer: str
    name: str
    is_bound: bool
    delta: Callable[[str, int, float], float | None] | None  # (case, k, ε) -> δ, None: n/a
    epsilon: Callable[[str, int, float], float | None] | None  # (case, k, δ) -> ε
    cases: tuple[str, ...] = CASES


@functools.cache
def peer_parameter(case: str) -> float:
    """ε0 for a peer: the least float >= log(e^ε0)."""
    return float_at_least(sympy.log(sympy.Rational(RATIOS[case])))


def dp_accounting_variants() -> list[Variant]:
    from dp_accounting import dp_event
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld_lib
    from dp_accounting.rdp import rdp_privacy_accountant as rdp_lib

    @functools.cache
    def pld(case: str, k: int, kind: str) -> Any:
        pessimistic = kind != "optimistic"
        if case == "rr":  # noise parameter p: keep = 1 - p + p/2 = 3/4
            base = pld_lib.from_randomized_response(0.5, 2, pessimistic_estimate=pessimistic)
        elif case == "dlap":
            base = pld_lib.from_discrete_laplace_mechanism(
                peer_parameter("dlap"),
                pessimistic_estimate=pessimistic,
                use_connect_dots=kind == "connect-dots",
            )
        else:
            base = pld_lib.from_privacy_parameters(
                common.DifferentialPrivacyParameters(peer_parameter("pure"), 0.0)
            )
        return base.self_compose(k)

    @functools.cache
    def rdp(case: str, k: int) -> Any:
        if case == "rr":
            event = dp_event.RandomizedResponseDpEvent(0.5, 2)
        elif case == "pure":  # pure ε-DP implies (ε²/2)-zCDP (Bun, Steinke 2016, Prop 1.4)
            event = dp_event.ZCDpEvent(peer_parameter("pure") ** 2 / 2)
        else:
            return None
        accountant = rdp_lib.RdpAccountant(
            neighboring_relation=rdp_lib.NeighborRel.REPLACE_ONE  # (rr needs it)
        )
        accountant.compose(event, k)
        return accountant

    def pld_variant(kind: str, cases: tuple[str, ...]) -> Variant:
        return Variant(
            "dp_accounting",
            f"PLD {kind}",
            kind != "optimistic",
            lambda c, k, e: pld(c, k, kind).get_delta_for_epsilon(e),
            lambda c, k, d: pld(c, k, kind).get_epsilon_for_delta(d),
            cases,
        )

    return [
        pld_variant("pessimistic", CASES),
        pld_variant("optimistic", ("rr", "dlap")),  # from_privacy_parameters: pessimistic only
        pld_variant("connect-dots", ("dlap",)),  # the only one of the three that offers it
        Variant(
            "dp_accounting",
            "RDP accountant",
            True,
            lambda c, k, e: rdp(c, k).get_delta(e),
            lambda c, k, d: rdp(c, k).get_epsilon(d),
            ("rr", "pure"),  # no RDP event for discrete Laplace
        ),
    ]


def prv_variants() -> list[Variant]:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PureDPMechanism

    @functools.cache
    def accountant(case: str, k: int) -> Any:
        # randomized response and sensitivity-1 discrete Laplace have exactly the PLD of the
        # ε0-DP dominating pair, which is prv_accountant's PureDPMechanism
        built = PRVAccountant(
            PureDPMechanism(peer_parameter(case)),
            eps_error=0.01,
            delta_error=1e-11,
            max_self_compositions=k,
        )
        composed = built.compute_composition(k)  # the FFT composition, once per (case, k);
        built.compute_composition = lambda _: composed  # its own compute_delta/_epsilon reuse it
        return built

    @functools.cache
    def delta(case: str, k: int, epsilon: float) -> tuple[float, float, float]:
        return accountant(case, k).compute_delta(epsilon, [k])  # (lower, estimate, upper)

    @functools.cache
    def epsilon(case: str, k: int, delta: float) -> tuple[float, float, float]:
        return accountant(case, k).compute_epsilon(delta, [k])

    def pick(index: int) -> Variant:
        return Variant(
            "prv_accountant",
            "upper" if index == 2 else "estimate",
            index == 2,
            lambda c, k, e: delta(c, k, e)[index],
            lambda c, k, d: epsilon(c, k, d)[index],
        )

    return [pick(2), pick(1)]


def autodp_variants() -> list[Variant]:
    from autodp.mechanism_zoo import PureDP_Mechanism, RandresponseMechanism
    from autodp.transformer_zoo import Composition

    @functools.cache
    def mechanism(case: str, k: int) -> Any:
        if case == "rr":
            single = RandresponseMechanism(p=0.75)
        else:  # pure ε0-DP; sensitivity-1 discrete Laplace is ε0-DP with the same PLD
            single = PureDP_Mechanism(peer_parameter(case))
        return single if k == 1 else Composition()([single], [k])

    return [
        Variant(
            "autodp",
            "RDP (Composition)",
            True,
            None,
            lambda c, k, d: mechanism(c, k).get_approxDP(d),
        )
    ]


def opendp_variants() -> list[Variant]:
    import opendp.prelude as dp

    dp.enable_features("contrib")

    @functools.cache
    def epsilon(case: str, k: int) -> float | None:
        if case == "rr":
            single = dp.m.make_randomized_response_bool(0.75)
            d_in: Any = 1
        elif case == "dlap":
            # P(x) ∝ exp(-|x|/scale); e^{-1/scale} <= 1/2 needs scale <= 1/log 2: the
            # greatest float <= 1/log 2, so OpenDP's mechanism is at most as private
            scale = 1 / peer_parameter("dlap")
            while certify.compare(Fraction(scale), 1 / sympy.log(2)) > 0:
                scale = math.nextafter(scale, 0)
            single = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale)
            d_in = 1
        else:
            return None
        if k == 1:
            return float(single.map(d_in))
        composed = dp.c.make_composition([single] * k)
        return float(composed.map(d_in))

    return [
        Variant(
            "opendp",
            "pure-DP map (basic composition)",
            True,
            None,
            lambda c, k, d: epsilon(c, k),
            ("rr", "dlap"),
        )
    ]


def prv_rdp_diagnostic() -> list[str]:
    """prv_accountant sizes its domain from ``PureDPMechanism.rdp``: compare it with exact D_α."""
    from prv_accountant.privacy_random_variables import PureDPMechanism

    lines = []
    for case in ("rr", "pure"):
        exact_pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=RATIOS[case])
        for order in (2, 10):
            peer = float(PureDPMechanism(peer_parameter(case)).rdp(order))
            exact = exact_pld.renyi_divergence(order)
            relation = "<" if certified_order(peer, exact) < 0 else ">="
            lines.append(
                f"{case}: PureDPMechanism.rdp({order}) = {peer:.6g} {relation} "
                f"exact D_{order} = {exact.decimal(6)}"
            )
    return lines


PEERS: dict[str, tuple[str, Callable[[], list[Variant]]]] = {
    "dp_accounting": ("dp-accounting", dp_accounting_variants),
    "prv_accountant": ("prv-accountant", prv_variants),
    "autodp": ("autodp", autodp_variants),
    "opendp": ("opendp", opendp_variants),
}


# --- the audit -----------------------------------------------------------------------------
@dataclass
class Tally:
    variant: Variant
    cases_run: set[str] = field(default_factory=set)
    evaluations: int = 0
    infinite: int = 0  # answers +inf (sound, uninformative; left out of the relative errors)
    worst: dict[str, tuple[float, str]] = field(default_factory=dict)  # by asked quantity
    violations: list[str] = field(default_factory=list)
    worst_undercut: float = 0.0  # the largest (exact - peer) / exact over the violations
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class Target:
    case: str
    k: int
    kind: str  # "delta" (δ given, ε asked) or "epsilon" (ε given, δ asked)
    value: float
    exact: Any


def _below(value: Any) -> float:
    """A float of 3 significant digits, <= value (certified): ε targets where δ(ε) > 0."""
    exact_value = value.to_sympy() if isinstance(value, LogValue) else value
    text = certify.decimal(exact_value, 30)
    candidate = float(f"{float(text):.3g}")
    while certify.compare(Fraction(candidate), exact_value) > 0:
        mantissa, exponent = f"{candidate:.2e}".split("e")
        candidate = float(f"{float(mantissa) - 0.01:.2f}e{exponent}")
    return candidate


def targets(ks: tuple[int, ...], deltas: tuple[float, ...]) -> list[Target]:
    """δ targets and, from them, ε targets (ε(δ) rounded down to 3 digits), with exact values.

    For k = 1 randomized response and discrete Laplace, ε(δ) is ε0 minus almost nothing for
    every δ here, so their single ε target is ε0/2 (rounded down).
    """
    found = []
    for case in CASES:
        for k in ks:
            at_epsilon: set[float] = set()
            for delta in deltas:
                epsilon = exact_epsilon(case, k, Fraction(delta))
                found.append(Target(case, k, "delta", delta, epsilon))
                if k == 1 and case != "pure":
                    at_epsilon.add(_below(sympy.log(RATIOS[case]) / 2))
                else:
                    at_epsilon.add(_below(epsilon))
            for at in sorted(at_epsilon):
                found.append(Target(case, k, "epsilon", at, exact_delta_at_float(case, k, at)))
    return found


def run_variant(tally: Tally, cases: list[Target]) -> None:
    variant = tally.variant
    for target in cases:
        if target.case not in variant.cases:
            continue
        call = variant.epsilon if target.kind == "delta" else variant.delta
        if call is None:
            continue
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                answer = call(target.case, target.k, target.value)
        except Exception as error:  # a peer's failure is a finding, not a crash
            tally.failures.append(
                f"{target.case} k={target.k} {target.kind}={target.value:g}: "
                f"{type(error).__name__}: {str(error)[:80]}"
            )
            continue
        finally:
            tally.seconds += time.perf_counter() - start
        if answer is None:
            continue
        answer = float(answer)
        tally.cases_run.add(f"{target.case}:{target.k}")
        tally.evaluations += 1
        asked = "ε" if target.kind == "delta" else "δ"
        given = "δ" if target.kind == "delta" else "ε"
        where = f"{target.case} k={target.k} {given}={target.value:g}"
        error = relative_error(answer, target.exact)
        if math.isinf(answer):
            tally.infinite += 1
        elif math.isinf(error):  # the exact value is 0
            tally.failures.append(f"{where}: exact value 0, peer {asked} = {answer:g}")
        elif error >= tally.worst.get(asked, (-1.0, ""))[0]:
            tally.worst[asked] = (error, f"{where}: {asked} = {answer:.6g}")
        if math.isnan(answer):
            tally.failures.append(f"{where}: {asked} is nan")
            continue
        if variant.is_bound and certified_order(answer, target.exact) < 0:
            expression = (
                target.exact.to_sympy() if isinstance(target.exact, LogValue) else target.exact
            )
            exact_text = certify.decimal(expression, 12)
            gap = float(Fraction(certify.decimal(expression, 30)) - Fraction(answer))
            tally.worst_undercut = max(tally.worst_undercut, error)
            tally.violations.append(
                f"{where}: peer {asked} = {answer!r} < exact {exact_text} "
                f"(rel. {error:.2e}, abs. {gap:.2e})"
            )


# --- issue 25: the DP-SGD audit --------------------------------------------------------------
GRID_RATES = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10))
GRID_SIGMAS = (Fraction(1, 2), Fraction(1), Fraction(2))
GRID_KS = (100, 1000, 10_000)
GRID_DELTAS = (Fraction(1, 10**5), Fraction(1, 10**8))


@dataclass
class DpsgdPeer:
    """A DP-SGD accountant: ``claim`` is "upper", "lower", "interval" or "estimate";
    ``call(σ, q, k, δ)`` returns ε (or (lower, estimate, upper) for "interval");
    ``code`` is the reproducer, formatted with sigma, q, k, delta."""

    peer: str
    name: str
    claim: str
    call: Callable[[float, float, int, float], Any]
    code: str


def dpsgd_peers() -> list[DpsgdPeer]:
    found: list[DpsgdPeer] = []
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import privacy_loss_distribution as pld_lib
        from dp_accounting.rdp import rdp_privacy_accountant as rdp_lib

        def pld(sigma: float, q: float, k: int, delta: float, pessimistic: bool) -> float:
            built = pld_lib.from_gaussian_mechanism(
                sigma,
                sampling_prob=q,
                value_discretization_interval=1e-4,
                pessimistic_estimate=pessimistic,
                use_connect_dots=pessimistic,
            )
            return built.self_compose(k).get_epsilon_for_delta(delta)

        def rdp(sigma: float, q: float, k: int, delta: float) -> float:
            accountant = rdp_lib.RdpAccountant()
            event = dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma))
            accountant.compose(event, k)
            return accountant.get_epsilon(delta)

        code = (
            "from dp_accounting.pld import privacy_loss_distribution as p; "
            "p.from_gaussian_mechanism({sigma}, sampling_prob={q}, "
            "value_discretization_interval=1e-4, pessimistic_estimate={pessimistic}, "
            "use_connect_dots={pessimistic}).self_compose({k}).get_epsilon_for_delta({delta})"
        )
        found += [
            DpsgdPeer(
                "dp_accounting",
                "PLD pessimistic (connect-dots, 1e-4)",
                "upper",
                lambda s, q, k, d: pld(s, q, k, d, True),
                code.replace("{pessimistic}", "True"),
            ),
            DpsgdPeer(
                "dp_accounting",
                "PLD optimistic (1e-4)",
                "lower",
                lambda s, q, k, d: pld(s, q, k, d, False),
                code.replace("{pessimistic}", "False"),
            ),
            DpsgdPeer(
                "dp_accounting",
                "RDP accountant",
                "upper",
                rdp,
                "from dp_accounting import dp_event, rdp; a = rdp.RdpAccountant(); "
                "a.compose(dp_event.PoissonSampledDpEvent({q}, dp_event.GaussianDpEvent({sigma})),"
                " {k}); a.get_epsilon({delta})",
            ),
        ]
    except ImportError:
        pass
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

        def prv(sigma: float, q: float, k: int, delta: float) -> tuple[float, float, float]:
            accountant = PRVAccountant(
                PoissonSubsampledGaussianMechanism(q, sigma),
                eps_error=0.01,
                delta_error=delta / 1000,
                max_self_compositions=k,
            )
            return accountant.compute_epsilon(delta, [k])

        found.append(
            DpsgdPeer(
                "prv_accountant",
                "PRVAccountant [lower, upper]",
                "interval",
                prv,
                "from prv_accountant import PRVAccountant; from prv_accountant."
                "privacy_random_variables import PoissonSubsampledGaussianMechanism as M; "
                "PRVAccountant(M({q}, {sigma}), eps_error=0.01, delta_error={delta}/1000, "
                "max_self_compositions={k}).compute_epsilon({delta}, [{k}])",
            )
        )
    except ImportError:
        pass
    try:
        from opacus.accountants import PRVAccountant as OpacusPRV
        from opacus.accountants import RDPAccountant as OpacusRDP

        def opacus(kind: Any, sigma: float, q: float, k: int, delta: float) -> float:
            accountant = kind()
            accountant.history = [(sigma, q, k)]
            return accountant.get_epsilon(delta)

        for kind, name in ((OpacusRDP, "RDPAccountant"), (OpacusPRV, "PRVAccountant")):
            found.append(
                DpsgdPeer(
                    "opacus",
                    name,
                    "upper",
                    functools.partial(opacus, kind),
                    f"from opacus.accountants import {name}; a = {name}(); "
                    "a.history = [({sigma}, {q}, {k})]; a.get_epsilon({delta})",
                )
            )
    except ImportError:
        pass
    try:
        from autodp.mechanism_zoo import SubsampleGaussianMechanism

        def autodp_rdp(sigma: float, q: float, k: int, delta: float) -> float:
            mechanism = SubsampleGaussianMechanism({"prob": q, "sigma": sigma, "coeff": k})
            return mechanism.get_approxDP(delta)

        def autodp_phi(sigma: float, q: float, k: int, delta: float) -> float:
            params = {"prob": q, "sigma": sigma, "coeff": k}
            values = []
            for relation in ("add_only", "remove_only"):
                mechanism = SubsampleGaussianMechanism(
                    params, phi_off=False, RDP_off=True, neighboring=relation
                )
                # autodp 0.2.3.1 documents 'prob' but phi_bank reads params['gamma']
                # (KeyError otherwise); the mechanism's own params dict is what it reads
                mechanism.params["gamma"] = q
                values.append(mechanism.get_approxDP(delta))
            return max(values)

        found += [
            DpsgdPeer(
                "autodp",
                "RDP (SubsampleGaussianMechanism)",
                "upper",
                autodp_rdp,
                "from autodp.mechanism_zoo import SubsampleGaussianMechanism as M; "
                "M({{'prob': {q}, 'sigma': {sigma}, 'coeff': {k}}}).get_approxDP({delta})",
            ),
            DpsgdPeer(
                "autodp",
                "characteristic function (max add/remove)",
                "estimate",
                autodp_phi,
                "from autodp.mechanism_zoo import SubsampleGaussianMechanism as M; ms = [M("
                "{{'prob': {q}, 'sigma': {sigma}, 'coeff': {k}}}, phi_off=False, RDP_off=True, "
                "neighboring=n) for n in ('add_only', 'remove_only')]; "
                "[m.params.update(gamma={q}) for m in ms]; "
                "max(m.get_approxDP({delta}) for m in ms)",
            ),
        ]
    except ImportError:
        pass
    return found


_WORKER_PEERS: list[DpsgdPeer] = []  # inherited by forked workers (closures do not pickle)


def _limit_memory(gigabytes: float) -> None:
    import resource

    limit = int(gigabytes * 2**30)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _run_peer(index: int, sigma: float, q: float, k: int, delta: float) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answer = _WORKER_PEERS[index].call(sigma, q, k, delta)
    if isinstance(answer, tuple):
        return tuple(float(value) for value in answer)
    return float(answer)


class _PeerPools:
    """One forked worker per peer, its data segment capped (a peer that runs out of memory
    fails alone instead of taking the machine's memory) and each call timed out."""

    def __init__(self, peers: list[DpsgdPeer], gigabytes: float, timeout: float) -> None:
        _WORKER_PEERS[:] = peers
        self.gigabytes, self.timeout = gigabytes, timeout
        self.pools: dict[int, Any] = {}

    def _pool(self, index: int) -> Any:
        import concurrent.futures
        import multiprocessing

        if index not in self.pools:
            self.pools[index] = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_limit_memory,
                initargs=(self.gigabytes,),
            )
        return self.pools[index]

    def call(self, index: int, sigma: float, q: float, k: int, delta: float) -> Any:
        import concurrent.futures

        future = self._pool(index).submit(_run_peer, index, sigma, q, k, delta)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            self._discard(index)
            raise TimeoutError(f"no answer within {self.timeout:g} s") from None
        except concurrent.futures.process.BrokenProcessPool:
            self._discard(index)
            raise MemoryError(
                f"the worker died (past its {self.gigabytes:g} GB data limit?)"
            ) from None

    def _discard(self, index: int) -> None:
        pool = self.pools.pop(index)
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        for index in list(self.pools):
            self.pools.pop(index).shutdown(wait=True)


def _bracket(bounds: Any) -> str:
    return f"[{_short(bounds.lower, up=False)}, {_short(bounds.upper, up=True)}]"


def _short(value: Fraction, *, up: bool) -> str:
    """Six significant digits, rounded outward (down for a lower end, up for an upper)."""
    from exactpml.notions.certified_pld import outward_decimal

    return outward_decimal(value, up=up, digits=6)


def dpsgd_audit(args: argparse.Namespace) -> int:
    from exactpml.notions import dpsgd_epsilon

    rates = tuple(Fraction(r) for r in args.grid_rates)
    sigmas = tuple(Fraction(s) for s in args.grid_sigmas)
    ks = tuple(args.grid_ks)
    deltas = tuple(Fraction(d) for d in args.grid_deltas)
    peers = dpsgd_peers()
    pools = _PeerPools(peers, args.peer_memory_gb, args.peer_timeout)
    print("DP-SGD audit: float accountants vs the certified bracket (exactpml.dpsgd_epsilon)")
    print(
        f"  each peer runs in a worker process limited to {args.peer_memory_gb} GB of data and "
        f"{args.peer_timeout} s per call (a peer past either is reported as failed)"
    )
    print(f"  q in {[str(r) for r in rates]}, σ in {[str(s) for s in sigmas]}, k in {list(ks)},")
    names = ", ".join(f"{p.peer} {p.name}" for p in peers)
    print(f"  δ in {[str(d) for d in deltas]}; peers: {names}")
    header = f"{'q':>6} {'σ':>4} {'k':>6} {'δ':>6} {'certified ε':>22} {'s':>6}"
    print(header + "".join(f" | {p.peer[:6]} {p.name[:18]:>18}" for p in peers))
    violations: list[str] = []
    ours_bugs: list[str] = []
    failures: list[str] = []
    total_ours = 0.0
    peer_seconds = {f"{p.peer} {p.name}": 0.0 for p in peers}
    counts = {f"{p.peer} {p.name}": [0, 0, 0] for p in peers}  # inside, outside-ok, violation
    for q in rates:
        for sigma in sigmas:
            for k in ks:
                for delta in deltas:
                    start = time.perf_counter()
                    bounds = dpsgd_epsilon(sigma, q, k, delta)
                    seconds = time.perf_counter() - start
                    total_ours += seconds
                    line = (
                        f"{float(q):>6g} {float(sigma):>4g} {k:>6} {float(delta):>6g} "
                        f"{_bracket(bounds):>22}"
                        f" {seconds:>6.1f}"
                    )
                    for peer in peers:
                        key = f"{peer.peer} {peer.name}"
                        start = time.perf_counter()
                        try:
                            answer = pools.call(
                                peers.index(peer), float(sigma), float(q), k, float(delta)
                            )
                        except Exception as error:  # a peer's failure is a finding
                            failures.append(
                                f"{key} at q={q} σ={sigma} k={k} δ={delta}: "
                                f"{type(error).__name__}: {str(error)[:80]}"
                            )
                            line += f" | {'failed':>25}"
                            continue
                        finally:
                            peer_seconds[key] += time.perf_counter() - start
                        values = answer if peer.claim == "interval" else (answer,)
                        text = "/".join(f"{float(v):.5g}" for v in values)
                        flags = _dpsgd_flags(peer, values, bounds)
                        mark = "!" if flags else ""
                        line += f" | {text + mark:>25}"
                        inside = all(
                            bounds.lower <= Fraction(float(v)) <= bounds.upper
                            for v in values
                            if math.isfinite(float(v))
                        )
                        counts[key][0 if inside else (2 if flags else 1)] += 1
                        reproducer = peer.code.format(
                            sigma=float(sigma), q=float(q), k=k, delta=float(delta)
                        )
                        for flag in flags:
                            entry = (
                                f"{key}: q={q} σ={sigma} k={k} δ={delta}: {flag}; certified "
                                f"ε in {bounds} (exactpml.notions.dpsgd_epsilon({sigma}, "
                                f"Fraction({q.numerator}, {q.denominator}), {k}, "
                                f"Fraction({delta.numerator}, {delta.denominator}))); "
                                f"reproducer: {reproducer}"
                            )
                            (
                                ours_bugs if "RDP" in peer.name and "below" in flag else violations
                            ).append(entry)
                    print(line, flush=True)
    print()
    print(f"exactpml certified brackets: {total_ours:.1f} s in total")
    for key, (inside, outside, bad) in counts.items():
        print(
            f"  {key}: inside the bracket {inside}, outside on its claimed side {outside}, "
            f"violations {bad}; {peer_seconds[key]:.1f} s"
        )
    for entry in violations:
        print(f"VIOLATION {entry}")
    for entry in ours_bugs:
        print(f"OUR BUG? {entry}")
    pools.close()
    kinds: dict[str, list[str]] = {}
    for entry in failures:  # one line per peer and error, with the grid points it hit
        key, _, rest = entry.partition(" at ")
        where, _, error = rest.partition(": ")
        kinds.setdefault(f"{key}: {error}", []).append(where)
    for what, where in kinds.items():
        print(f"failed ({len(where)}x): {what} (first at {where[0]})")
    return 1 if ours_bugs else 0


def _dpsgd_flags(peer: DpsgdPeer, values: tuple[Any, ...], bounds: Any) -> list[str]:
    """The claims the certified bracket refutes (compared as exact rationals)."""
    flags = []
    if peer.claim == "interval":
        lower, _, upper = (float(v) for v in values)
        if math.isfinite(upper) and Fraction(upper) < bounds.lower:
            low = _short(bounds.lower, up=False)
            flags.append(f"claimed upper {upper!r} < certified lower {low}")
        if math.isfinite(lower) and Fraction(lower) > bounds.upper:
            high = _short(bounds.upper, up=True)
            flags.append(f"claimed lower {lower!r} > certified upper {high}")
        return flags
    value = float(values[0])
    if math.isnan(value):
        return ["nan"]
    if peer.claim == "upper" and math.isfinite(value) and Fraction(value) < bounds.lower:
        low = _short(bounds.lower, up=False)
        flags.append(f"claimed upper {value!r} below certified lower {low}")
    if peer.claim == "lower" and math.isfinite(value) and Fraction(value) > bounds.upper:
        high = _short(bounds.upper, up=True)
        flags.append(f"claimed lower {value!r} above certified upper {high}")
    return flags


def _worst(tally: Tally, asked: str) -> str:
    return f"{tally.worst[asked][0]:.2e}" if asked in tally.worst else "-"


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k in {1, 10}, δ in {1e-2,1e-5,1e-9}")
    parser.add_argument("--peers", default=",".join(PEERS), help="comma-separated peers to run")
    parser.add_argument("--dpsgd", action="store_true", help="issue 25: the DP-SGD grid")
    parser.add_argument("--grid-rates", nargs="+", default=[str(r) for r in GRID_RATES])
    parser.add_argument("--grid-sigmas", nargs="+", default=[str(s) for s in GRID_SIGMAS])
    parser.add_argument("--grid-ks", type=int, nargs="+", default=list(GRID_KS))
    parser.add_argument("--grid-deltas", nargs="+", default=[str(d) for d in GRID_DELTAS])
    parser.add_argument("--peer-memory-gb", type=float, default=4.0, help="per peer worker")
    parser.add_argument("--peer-timeout", type=float, default=1200.0, help="seconds per call")
    args = parser.parse_args(argv)
    if args.dpsgd:
        return dpsgd_audit(args)
    ks = (1, 10) if args.quick else KS
    deltas = (1e-2, 1e-5, 1e-9) if args.quick else DELTAS

    start = time.perf_counter()
    cases = targets(ks, deltas)
    exact_seconds = time.perf_counter() - start
    print("Peer audit: δ(ε) and ε(δ) claimed by DP accountants vs the exact values (exactpml)")
    print(f"  mechanisms: {'; '.join(f'{c} = {CASE_TEXT[c]}' for c in CASES)}")
    print(f"  k in {list(ks)}; δ targets {', '.join(f'{d:g}' for d in deltas)}; ε targets")
    print(f"  ε(δ) rounded down to 3 digits; {len(cases)} exact values in {exact_seconds:.1f} s")
    print()
    tallies: list[Tally] = []
    for name in args.peers.split(","):
        distribution, build = PEERS[name]
        try:
            variants = build()
        except ImportError as error:
            print(f"{name}: not installed ({error.name}); pip install -e '.[peers]'")
            continue
        print(f"{name} {version(distribution)}: ", end="", flush=True)
        for variant in variants:
            tally = Tally(variant)
            run_variant(tally, cases)
            tallies.append(tally)
            print(f"{variant.name} {tally.seconds:.1f} s; ", end="", flush=True)
        print()
        if name == "prv_accountant":
            for line in prv_rdp_diagnostic():
                print(f"  {line}")
    print()
    header = f"{'peer':<15}{'variant':<33}{'bound?':<7}{'evals':>6}"
    header += f"{'worst rel. err ε(δ)':>20}{'δ(ε)':>10}"
    header += f"{'inf':>5}{'violations':>11}{'worst undercut':>16}{'s':>7}"
    print(header)
    print("-" * len(header))
    for tally in tallies:
        variant = tally.variant
        print(
            f"{variant.peer:<15}{variant.name:<33}{'upper' if variant.is_bound else 'est.':<7}"
            f"{tally.evaluations:>6}{_worst(tally, 'ε'):>20}{_worst(tally, 'δ'):>10}"
            f"{tally.infinite:>5}{len(tally.violations):>11}"
            f"{tally.worst_undercut:>16.2e}"
            f"{tally.seconds:>7.1f}"
        )
    for tally in tallies:
        variant = tally.variant
        title = f"{variant.peer} / {variant.name}"
        print()
        print(f"{title}: cases {', '.join(sorted(tally.cases_run)) or 'none'}")
        for asked, (error, at) in sorted(tally.worst.items()):
            print(f"  worst relative error of {asked}: {error:.3e} at {at}")
        for line in tally.violations:
            print(f"  VIOLATION {line}")
        for line in tally.failures:
            print(f"  failed: {line}")
    print()
    print(f"total {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
