"""Claims of Vadhan's *Notes on the Definition of Differential Privacy* (ids ``vadhan.*``).

MIT 6.889 scribe notes, 2013, restated in ``CLAIMS.md``, section ``vadhan.``, which these
checks follow.  The library under test is
:mod:`exactpml.notions` and :mod:`exactpml.leakage`; every value it returns is compared with
:mod:`proofs_check.reference`, which computes from the definitions (maxima over
every event, over every neighbourhood, Bayes' rule), or with closed forms derived by hand in
the docstrings.  Rational instances are decided by exact arithmetic; transcendental ones
(tanh(ε/2) with e^ε irrational, Hellinger and KL bounds) by :mod:`exactpml.certify`, whose
enclosures must exclude the boundary: otherwise the instance counts as undecided.

Findings about the source (reported in the evidence):

* §1.1, Case 1 says the statistical difference is "less than 0.1"; it can equal 0.1
  (the witness of ``vadhan.case_1``): read "at most 0.1".
* Prop 2's proof writes the likelihood ratio as (1+γ)/(1-γ); with its own γ it is
  (1-γ)/(1+γ), and "γ/2 = Δ" should be "|γ|/2 = Δ".  Harmless: |γ| <= 2ε bounds both.
* Prop 2's constant is not sharp: the least ε for which the hypothesis holds is
  tanh(ε_DP/4) = (√r - 1)/(√r + 1) (r = e^{ε_DP}), so e^{ε'} = ((1+ε)/(1-ε))² exactly,
  below (1+2ε)/(1-2ε), and the conclusion holds for every ε < 1, not only ε < 1/2.

Modules: :mod:`.statements` (the claims), :mod:`.divergences` (``vadhan.max_divergence``,
``vadhan.statistical_difference``, ``vadhan.case_1``), :mod:`.simulation`
(``vadhan.claim_1``), :mod:`.bayesian` (``vadhan.prop_1``, ``vadhan.prop_2``).
"""
