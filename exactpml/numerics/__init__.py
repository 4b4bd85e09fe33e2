"""Numerics above the exact core: one-sided limits of parametric expressions
(:mod:`~exactpml.numerics.limits`, the proofs' t -> 0+ constructions) and exact analysis of
univariate rational functions (:mod:`~exactpml.numerics.univariate`: real roots, signs on
intervals).  Certified interval arithmetic itself is in :mod:`exactpml.core.certify`, because
every validated value object needs it to decide signs.
"""
