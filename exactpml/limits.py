"""Public face of :mod:`exactpml.numerics.limits` (exact one-sided limits)."""

from exactpml.numerics.limits import *  # noqa: F403
from exactpml.numerics.limits import __all__  # noqa: F401
