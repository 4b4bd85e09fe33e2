"""Public face of :mod:`exactpml.numerics.limits` (exact one-sided limits).

``exactpml.limits`` *is* that module: importing this file replaces itself in
``sys.modules`` by it, so every name (and any monkeypatching) is shared.  The star import
is for type checkers, which read this file.
"""

import sys as _sys

from exactpml.numerics import limits as _module
from exactpml.numerics.limits import *  # noqa: F403

_sys.modules[__name__] = _module
