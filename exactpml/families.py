"""Public face of :mod:`exactpml.suprema.families` (families of priors).

``exactpml.families`` *is* that module: importing this file replaces itself in
``sys.modules`` by it, so every name (and any monkeypatching) is shared.  The star import
is for type checkers, which read this file.
"""

import sys as _sys

from exactpml.suprema import families as _module
from exactpml.suprema.families import *  # noqa: F403

_sys.modules[__name__] = _module
