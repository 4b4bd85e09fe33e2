"""The measure table for finite mechanisms: how :meth:`Instance.leakage` evaluates an instance.

:class:`~exactpml.suprema.witnesses.Instance` names its measure (``"pml"``, ``"attribute"``,
``"entry"``, ``"conditional"``, ``"gain"``); this module maps each name to the leakage measure
of :mod:`exactpml.leakage` that computes it from the definitions, and registers the table for
:class:`~exactpml.core.mechanism.Mechanism`.  Continuous mechanisms register their own
(:mod:`exactpml.continuous.mechanism`).  To add a measure: add a row to ``_FINITE`` (and to the
continuous table if it applies there).
"""

from __future__ import annotations

from collections.abc import Callable

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.leakage.pml import (
    conditional_pointwise_maximal_leakage,
    guessing_gain,
    pointwise_maximal_leakage,
)
from exactpml.suprema.witnesses import (
    Instance,
    entry_attribute,
    register_measure_evaluator,
    rest_attribute,
)

__all__ = ["evaluate_finite"]


def _entry(instance: Instance) -> int:
    if instance.entry is None:
        raise InvalidArgument(
            f"an instance of measure {abbreviated_repr(instance.measure)} needs an entry"
        )
    return instance.entry


_FINITE: dict[str, Callable[[Instance], LogValue]] = {
    "pml": lambda i: pointwise_maximal_leakage(i.mechanism, i.prior, i.output),
    "attribute": lambda i: pointwise_maximal_leakage(
        i.mechanism, i.prior, i.output, attribute=i.attribute
    ),
    "gain": lambda i: guessing_gain(i.mechanism, i.prior, i.output, i.attribute),
    "entry": lambda i: pointwise_maximal_leakage(
        i.mechanism, i.prior, i.output, attribute=entry_attribute(_entry(i))
    ),
    "conditional": lambda i: conditional_pointwise_maximal_leakage(
        i.mechanism,
        i.prior,
        i.output,
        given=rest_attribute(_entry(i)),
        value=i.side_information,
        attribute=entry_attribute(_entry(i)),
    ),
}


def evaluate_finite(instance: Instance) -> LogValue:
    """The exact value of ``instance`` for a finite mechanism (one row of the table)."""
    evaluate = _FINITE.get(instance.measure)
    if evaluate is None:
        raise InvalidArgument(
            f"measure {abbreviated_repr(instance.measure)} has no finite evaluator (known: "
            f"{sorted(_FINITE)})"
        )
    return evaluate(instance)


register_measure_evaluator(Mechanism, evaluate_finite)
