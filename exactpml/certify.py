"""Public face of :mod:`exactpml.core.certify` (certified signs, comparisons and decimals).

``exactpml.certify`` *is* that module: importing this file replaces itself in
``sys.modules`` by it, so every name (and any monkeypatching) is shared.  The star import
is for type checkers, which read this file.
"""

import sys as _sys

from exactpml.core import certify as _module
from exactpml.core.certify import *  # noqa: F403

_sys.modules[__name__] = _module
