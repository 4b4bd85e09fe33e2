"""Checks of Saeidian, Cervia, Oechtering, Skoglund, *Rethinking Disclosure Prevention with
Pointwise Maximal Leakage* (claim ids ``pml.*``; proofs in its Appendices A and B).

The brute-force definitions the checks compare with are :mod:`proofs_check.reference.pml`
and :mod:`proofs_check.reference.dp`.  Modules (each registers its checks when imported):

- :mod:`.statements`: the claims (ids, numbers, statements, kinds);
- :mod:`.section_2_3`: ``pml.pre_processing``, ``pml.def_2_6``, ``pml.thm_3_4``;
- :mod:`.leakage_suprema`: ``pml.thm_2_4``, ``pml.thm_2_8`` (suprema over attributes and priors);
- :mod:`.disclosure_prevention`: ``pml.thm_3_5``, ``pml.thm_3_7``, ``pml.cor_3_10``;
- :mod:`.disclosure_constructions`: ``pml.prop_3_6``, ``pml.prop_3_8`` (App. A.3, A.5);
- :mod:`.example_3_11`: ``pml.ex_3_11`` (deterministic counting query, Figure 1);
- :mod:`.example_3_1`: ``pml.ex_3_1`` (quantized sample mean vs first row);
- :mod:`.section_4`: ``pml.thm_4_2``, ``pml.thm_4_5`` (DP and free-lunch privacy as PML);
- :mod:`.correlated_entries`: ``pml.thm_4_3`` (DP leaking almost all of an entry);
- :mod:`.laplace_counting_query`: ``pml.prop_4_6`` (the Laplace counting query);
- :mod:`._proofs`: the source's quantities over every prior and kernel of a fixed size, for
  the proof engines (PROVED parts and strengthenings of the checks above).
"""
