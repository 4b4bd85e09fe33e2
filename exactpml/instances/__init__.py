"""The sources' worked examples that stand on their own: Saeidian et al. Example 3.11
(:mod:`~exactpml.instances.threshold_query`) and Prop 4.6
(:mod:`~exactpml.instances.laplace_counting`).

The thesis's Example 7 and the poster's scenarios stay in :mod:`exactpml.partial_knowledge`
and :mod:`exactpml.bldp`: they are part of those packages' public faces and are built from
their private pieces.
"""
