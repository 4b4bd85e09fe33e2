"""Quantitative information flow (QIF): vulnerabilities, leakages, capacities, channel algebra.

Sources: Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, *The Science of
Quantitative Information Flow* (Springer, 2020), cited as "the book" with chapter numbers;
Issa, Wagner, Kamath, "An operational approach to information leakage" (IEEE Trans. IT 2020),
Def 1 and Thm 1; Liao, Kosut, Sankar, Calmon, "Tunable measures for information leakage and
applications to privacy-utility tradeoffs" (IEEE Trans. IT 2019), maximal α-leakage;
Sibson's α-mutual information (Sibson 1969; Verdú 2015); Cover & Thomas, *Elements of
Information Theory* (2nd ed.), Chapter 2, for entropy and mutual information.

Every value is exact: vulnerabilities and additive leakages are ``Fraction``; logs of exact
ratios are :class:`~exactpml.LogValue`; entropies and mutual informations are exact sympy
closed forms (rational combinations of logs), whose decimals come from :mod:`exactpml.certify`.
The measures need rational kernels, priors and gains (symbolic entries are refused naming
the entry).

Modules: :mod:`.vulnerability` (Bayes and g-vulnerability and leakage), :mod:`.gain`
(:class:`GainFunction`), :mod:`.entropy` (Shannon and Rényi entropy, H(X|Y), I(X;Y)),
:mod:`.capacity` (Bayes capacities with a maximising prior), :mod:`.alpha` (Sibson's I_α,
maximal α-leakage, the guessing ratio), :mod:`.shannon_capacity` (certified capacity
brackets), :mod:`.channels` (cascade, parallel composition, marginals, refinement).

Work is bounded before it starts (``exactpml.Bounds``): an order α whose exact powers would
be too large is refused naming it (``renyi_entropy_bounds`` and
``sibson_mutual_information_bounds`` give certified bounds at every order, 10^999
included), as are tolerances, iteration budgets and tables that would cost too much.

>>> from exactpml import Distribution, Mechanism
>>> from exactpml.qif import additive_bayes_leakage, multiplicative_bayes_capacity
>>> channel = Mechanism({0: {"y": "1/2", "n": "1/2"}, 1: {"y": 1}})
>>> additive_bayes_leakage(channel, Distribution.uniform([0, 1]))
Fraction(1, 4)
>>> print(multiplicative_bayes_capacity(channel).value)
log(3/2)
"""

from exactpml.core import boundary as _boundary
from exactpml.numerics.log_moments import RenyiBounds
from exactpml.qif.alpha import (
    guessing_ratio,
    maximal_alpha_leakage,
    sibson_mutual_information,
    sibson_mutual_information_bounds,
)
from exactpml.qif.capacity import Capacity, additive_bayes_capacity, multiplicative_bayes_capacity
from exactpml.qif.channels import (
    RefinementCertificate,
    cascade,
    output_marginal,
    parallel,
    refinement_certificate,
    refinement_map,
    refines,
)
from exactpml.qif.entropy import (
    conditional_entropy,
    mutual_information,
    renyi_entropy,
    renyi_entropy_bounds,
    shannon_entropy,
)
from exactpml.qif.gain import GainFunction
from exactpml.qif.shannon_capacity import CapacityBounds, shannon_capacity
from exactpml.qif.vulnerability import (
    additive_bayes_leakage,
    additive_g_leakage,
    bayes_vulnerability,
    g_vulnerability,
    multiplicative_bayes_leakage,
    multiplicative_g_leakage,
    posterior_bayes_vulnerability,
    posterior_g_vulnerability,
)

__all__ = [
    "Capacity",
    "CapacityBounds",
    "GainFunction",
    "RefinementCertificate",
    "RenyiBounds",
    "additive_bayes_capacity",
    "additive_bayes_leakage",
    "additive_g_leakage",
    "bayes_vulnerability",
    "cascade",
    "conditional_entropy",
    "g_vulnerability",
    "guessing_ratio",
    "maximal_alpha_leakage",
    "multiplicative_bayes_capacity",
    "multiplicative_bayes_leakage",
    "multiplicative_g_leakage",
    "mutual_information",
    "output_marginal",
    "parallel",
    "posterior_bayes_vulnerability",
    "posterior_g_vulnerability",
    "refinement_certificate",
    "refinement_map",
    "refines",
    "renyi_entropy",
    "renyi_entropy_bounds",
    "shannon_capacity",
    "shannon_entropy",
    "sibson_mutual_information",
    "sibson_mutual_information_bounds",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
