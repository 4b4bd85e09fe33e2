"""Checks of Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (ids ``bldp.*``).

The poster states its properties without proofs, some only as "analogous to standard
differential privacy"; ``CLAIMS.md``, section ``bldp.``, says which precise statements are
checked.  The library under test is :mod:`exactpml.bldp`; the reference values come from
:mod:`proofs_check.reference.bldp` (the definition evaluated on the raw tables) or from hand
derivations in the docstrings.  Every value is exact; ε is given as ``LogValue(r)``
(e^ε = r rational).

- :mod:`.statements`: the claims (ids, numbers, statements, kinds);
- :mod:`.definition`: ``bldp.definition``;
- :mod:`.post_processing`: ``bldp.post_processing`` and ``bldp.leak_release``;
- :mod:`.composition`: ``bldp.composition``;
- :mod:`.group_privacy`: ``bldp.group_privacy``;
- :mod:`.scenarios`: ``bldp.independent_leakage`` (Scenario 1) and ``bldp.non_participation``
  (Scenario 2).
"""
