"""The error of a strategy's arguments: exactpml's and Hypothesis' ``InvalidArgument`` at once.

Issue 21 (every public boundary raises an exactpml error naming the entry).  Hypothesis'
own validation raises :class:`hypothesis.errors.InvalidArgument`, and a test that passes a
bad argument to a strategy expects that class; exactpml's callers expect
:class:`exactpml.errors.InvalidArgument`.  :class:`StrategyArgumentError` is both, so either
``except`` catches it.  It lives in the strategies package: ``import exactpml`` loads no
Hypothesis.

>>> from hypothesis.errors import InvalidArgument as HypothesisInvalidArgument
>>> from exactpml.errors import InvalidArgument
>>> error = StrategyArgumentError("distributions: max_size must be an int, got str")
>>> isinstance(error, InvalidArgument), isinstance(error, HypothesisInvalidArgument)
(True, True)
"""

from __future__ import annotations

from hypothesis.errors import InvalidArgument as HypothesisInvalidArgument

from exactpml.errors import InvalidArgument

__all__ = ["StrategyArgumentError"]


class StrategyArgumentError(InvalidArgument, HypothesisInvalidArgument):
    """A strategy function's argument is wrong (exactpml's and Hypothesis' error class)."""
