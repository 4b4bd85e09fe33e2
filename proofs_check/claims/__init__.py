"""The claim checks, one subpackage per source of ``CLAIMS.md``.

Importing this package registers every check with the default registry.  To add a
source, create its subpackage (``vadhan``, ``partial_knowledge``, ``bldp``) and add its
name to the import below.
"""

from proofs_check.claims import pml

__all__ = ["pml"]
