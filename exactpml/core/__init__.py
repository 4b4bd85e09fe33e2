"""The foundations every other layer of exactpml builds on.

Exact conversion of user input (:mod:`exactpml.core.parsing`), the bounds that keep every
read finite (:mod:`exactpml.core.bounds`) and the one parameter policy for ε, e^ε, δ, orders
and probabilities (:mod:`exactpml.core.parameters`).  Nothing here imports an algorithm.
"""
