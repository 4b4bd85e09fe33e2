"""The claim checks: one package per source, each holding that source's statements, checks
and mutants.

- :mod:`.pml`: Saeidian, Cervia, Oechtering, Skoglund, *Rethinking Disclosure Prevention
  with Pointwise Maximal Leakage* (ids ``pml.*``);
- :mod:`.vadhan`: Vadhan, *Notes on the Definition of Differential Privacy* (``vadhan.*``);
- :mod:`.partial_knowledge`: the thesis *Lowering the cost of anonymization*, §3.1.3
  (``pk.*``);
- :mod:`.bldp`: Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (``bldp.*``).

A source's package has a ``statements`` module (its claims as data, gathered by
:mod:`proofs_check.catalog`), one module per group of claims with their checks (each check
declares its mutants in :func:`proofs_check.check`), and private helpers.  Importing this
package registers nothing: :func:`proofs_check.registry.load_claim_modules` imports every
module below it, which registers every check with the default registry.  The brute-force
definitions the checks compare with live in :mod:`proofs_check.reference`, shared with the
test suite.  ``README.md`` in this folder says how to add a source.
"""
