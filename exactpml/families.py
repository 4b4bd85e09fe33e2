"""Public face of :mod:`exactpml.suprema.families` (families of priors)."""

from exactpml.suprema.families import *  # noqa: F403
from exactpml.suprema.families import __all__  # noqa: F401
