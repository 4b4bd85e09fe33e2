"""Public face of :mod:`exactpml.core.certify` (certified signs, comparisons and decimals)."""

from exactpml.core.certify import *  # noqa: F403
from exactpml.core.certify import DEFAULT_MAX_PRECISION, __all__, check_expression  # noqa: F401
