"""Checks of the thesis *Lowering the cost of anonymization*, §3.1.3 (claim ids ``pk.*``).

Active vs passive partial knowledge; formulas lost in the text's extraction are restated in
``CLAIMS.md``, section ``pk.``, which these checks follow.  The library under test is
:mod:`exactpml.partial_knowledge`; the reference values come from
:mod:`proofs_check.reference.partial_knowledge` (enumeration straight from the definitions)
or from closed forms derived by hand in the docstrings, never from the library itself.
Every value is exact; ε is given as ``LogValue(r)`` (e^ε = r rational) unless an irrational
ε is named.

- :mod:`.statements`: the claims (ids, numbers, statements, kinds);
- :mod:`.classical_dp`: ``pk.prop_8`` (Prop 8, the PLRV and set forms of δ) and
  ``pk.full_knowledge`` (full knowledge is classical DP);
- :mod:`.active_passive`: ``pk.thm_1`` (Thm 1, APKDP ⇒ PPKDP);
- :mod:`.example_7`: ``pk.ex_7`` (Example 7, the thresholded referendum);
- :mod:`.reducibility`: ``pk.thm_2`` (Thm 2 with Def 59, Θ-reducibility);
- :mod:`.queries`: ``pk.prop_26`` (Prop 26, reducible queries and their maps φ);
- :mod:`.thresholded_counting`: ``pk.remark_2`` (Remark 2);
- :mod:`.post_processing`: ``pk.prop_25`` (Prop 25, post-processing and convexity).
"""
