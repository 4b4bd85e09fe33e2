"""The claim checks, one module (or subpackage) per source of ``CLAIMS.md``.

Importing this package registers every check with the default registry.  To add a
source, create its module and add its name to the import below.
"""

from proofs_check.claims import bldp, partial_knowledge, pml, vadhan

__all__ = ["bldp", "partial_knowledge", "pml", "vadhan"]
