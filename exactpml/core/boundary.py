"""The public boundary: arguments checked against their annotations, foreign errors named.

Issue 21 ("Foreign exceptions become exactpml errors at every public boundary ... a clear
exactpml error naming the entry, and nothing changed").  :func:`boundary` wraps a public
function so that, before any work,

* each argument whose annotation names a type that can be checked is checked, and a wrong
  one is refused naming the function and the parameter:
  ``InvalidArgument("pointwise_maximal_leakage: mechanism must be a Mechanism, got
  NoneType (mechanism=None)")`` (of the class :class:`~exactpml.core.foreign.InvalidArgumentType`, a
  ``TypeError`` too; :class:`~exactpml.errors.InexactInput` for a float).  Checked:
  classes (exactpml's value types, ``int``, ``str``, ``bool``, ...), callables, iterables
  (``Iterable``, ``Sequence``, ``list``, ``tuple``, ...), mappings,
  ``Literal`` choices, ``None`` and unions of these.  Exact numbers (``Fraction``, sympy,
  ``Scalar``, ``float``, ``object``, ``Any``), ``Hashable`` and anything the module does not
  define at run time are left to the function (the parameter policy gives the better message
  there, ``InexactInput`` for a float); so is a union with any such member;
* any other ``Exception`` raised inside the call becomes an
  :class:`~exactpml.errors.InvalidArgument` (a ``TypeError`` too for a foreign
  ``TypeError``) naming the function, with the foreign type and
  message abbreviated in the text (``"Mechanism.restrict: TypeError: unhashable type:
  'list'"``), chained to the foreign exception (``__cause__``, its traceback dropped: nothing
  from deep inside sympy or flint is printed; ``function.__wrapped__`` runs without the
  boundary, for debugging).

What passes through unchanged, by decision:

* exactpml's own errors (they name their entry already), and any exception class defined
  by exactpml or proofs_check (``PropertyError`` of ``property_holds``: documented);
* ``AssertionError``: the documented failure of :mod:`exactpml.testing`'s assertions, and a
  broken invariant of exactpml (a bug to report, not an argument error);
* ``MemoryError``: resource exhaustion is not an argument error, and every expensive
  parameter must be refused by a predicted cost before the work starts (the fuzz tests
  report a ``MemoryError`` as a failure, so a missing cost check stays visible);
* ``StopIteration`` / ``StopAsyncIteration`` (the iterator protocol: ``iter(f, sentinel)``)
  and warnings raised as errors (``-W error``);
* Hypothesis' exceptions other than its ``InvalidArgument`` (``UnsatisfiedAssumption`` from
  ``assume``, ``Flaky``, ``DeadlineExceeded``, ...): control flow of a test that called us;
* ``BaseException``\\ s that are not ``Exception`` (``KeyboardInterrupt``, ``SystemExit``).

:func:`guard_public_names` applies the boundary to every function and public method of a
public module's ``__all__`` (each package's ``__init__`` calls it last), in the namespace and
in the defining module, so internal calls that imported the function directly skip the
checks.  A method on an inner loop opts out with :func:`unguarded` (it translates foreign
errors itself).  Annotations are read with :mod:`ast` and looked up by name in the
function's module: nothing is evaluated.

>>> def scaled(weight: int, *, label: str | None = None) -> int:
...     return weight * 2
>>> checked = boundary(scaled)
>>> checked(3)
6
>>> checked("3")
Traceback (most recent call last):
...
exactpml.core.foreign.InvalidArgumentType: scaled: weight must be an int, got str (weight='3')
>>> checked(3, label=4)
Traceback (most recent call last):
...
exactpml.core.foreign.InvalidArgumentType: scaled: label must be a str or None, got int (label=4)
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import functools
import inspect
import numbers
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.display import printable_record
from exactpml.core.foreign import InvalidArgumentType, translated
from exactpml.errors import ExactPMLError, InexactInput, InvalidArgument

__all__ = [
    "Expected",
    "boundary",
    "expected_of",
    "guard_class",
    "guard_public_names",
    "unguarded",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: Exceptions that pass a boundary unchanged (see the module docstring).
PASSED: tuple[type[BaseException], ...] = (
    ExactPMLError,
    AssertionError,
    MemoryError,
    StopIteration,
    StopAsyncIteration,
    Warning,
)

#: Classes whose annotation is not checked: exact numbers (the parameter policy reads them),
#: ``object`` and floats (refused by the policy with ``InexactInput``).
_NUMBER_CLASSES: frozenset[type] = frozenset(
    {
        object,
        float,
        complex,
        Fraction,
        Decimal,
        numbers.Number,
        numbers.Complex,
        numbers.Real,
        numbers.Rational,
        sympy.Basic,
        sympy.Expr,
        sympy.Number,
        sympy.Rational,
        sympy.Integer,
        sympy.Float,
        collections.abc.Hashable,
    }
)
_ITERABLE_ORIGINS: frozenset[Any] = frozenset(
    {
        list,
        tuple,
        set,
        frozenset,
        collections.abc.Iterable,
        collections.abc.Iterator,
        collections.abc.Collection,
        collections.abc.Sequence,
        collections.abc.MutableSequence,
        collections.abc.Set,
        collections.abc.MutableSet,
        collections.abc.Generator,
        collections.abc.Container,
        collections.abc.Reversible,
    }
)
_MAPPING_ORIGINS: frozenset[Any] = frozenset(
    {dict, collections.abc.Mapping, collections.abc.MutableMapping}
)


@dataclass(frozen=True)
class Expected:
    """What an annotation accepts: instances of ``classes``, ``None``, any callable, any
    iterable, any mapping, or one of ``choices`` (a ``Literal``); ``text`` says it."""

    classes: tuple[type, ...] = ()
    none: bool = False
    any_callable: bool = False
    any_iterable: bool = False
    any_mapping: bool = False
    choices: tuple[object, ...] = ()

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is of an accepted kind (never raises: ``RaisingEquality`` and
        friends are compared only when they are of a chosen literal's type)."""
        if self.classes and isinstance(value, self.classes):
            return True
        if value is None:
            return self.none
        if self.any_callable and callable(value):
            return True
        if self.any_iterable and isinstance(value, Iterable):
            return True
        if self.any_mapping and isinstance(value, Mapping):
            return True
        if self.choices and type(value) in {type(choice) for choice in self.choices}:
            return value in self.choices
        return False

    def text(self) -> str:
        """``"a Mechanism"``, ``"an int or None"``, ``"one of 'fast', 'sympy'"``."""
        parts: list[str] = []
        for cls in self.classes:
            text = _article(_class_text(cls))
            if text not in parts:
                parts.append(text)
        if self.any_callable:
            parts.append("a callable")
        if self.any_iterable:
            parts.append("an iterable")
        if self.any_mapping:
            parts.append("a mapping")
        if self.choices:
            parts.append("one of " + ", ".join(repr(choice) for choice in self.choices))
        if self.none:
            parts.append("None")
        return " or ".join(parts)


def _class_text(cls: type) -> str:
    return "int" if cls is numbers.Integral else cls.__name__


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _union(members: list[Expected | None]) -> Expected | None:
    """The union of several expectations; ``None`` (unchecked) if any member is."""
    if not members or any(member is None for member in members):
        return None
    known = [member for member in members if member is not None]
    classes: list[type] = []
    for member in known:
        classes.extend(cls for cls in member.classes if cls not in classes)
    choices: list[object] = []
    for member in known:
        choices.extend(choice for choice in member.choices if choice not in choices)
    return Expected(
        classes=tuple(classes),
        none=any(member.none for member in known),
        any_callable=any(member.any_callable for member in known),
        any_iterable=any(member.any_iterable for member in known),
        any_mapping=any(member.any_mapping for member in known),
        choices=tuple(choices),
    )


_NONE = Expected(none=True)
_CALLABLE = Expected(any_callable=True)
_ITERABLE = Expected(any_iterable=True)
_MAPPING = Expected(any_mapping=True)


def _of_class(cls: type) -> Expected | None:
    if cls in _NUMBER_CLASSES or cls is type(None):
        return _NONE if cls is type(None) else None
    if cls is collections.abc.Callable:
        return _CALLABLE
    if cls in _ITERABLE_ORIGINS:
        return _ITERABLE
    if cls in _MAPPING_ORIGINS:
        return _MAPPING
    if cls is int:
        return Expected(classes=(int, numbers.Integral))
    if (
        isinstance(cls, type)
        and issubclass(cls, sympy.Basic)
        and cls.__module__.startswith("sympy.core.numbers")
    ):
        return None
    try:
        isinstance(None, cls)  # a Protocol that is not runtime-checkable refuses
    except TypeError:
        return None
    return Expected(classes=(cls,))


def _of_object(value: Any) -> Expected | None:
    """The expectation of an annotation object (a class, a union, a generic alias)."""
    if value is None or value is type(None):
        return _NONE
    if value is Any or isinstance(value, TypeVar):
        return None
    origin = typing.get_origin(value)
    if origin in (typing.Union, types.UnionType):
        return _union([_of_object(argument) for argument in typing.get_args(value)])
    if origin is typing.Literal:
        return _literal(typing.get_args(value))
    if origin is not None:
        return _of_generic(origin)
    if isinstance(value, type):
        return _of_class(value)
    return None


def _of_generic(origin: Any) -> Expected | None:
    if origin is collections.abc.Callable:
        return _CALLABLE
    if origin is type:
        return None
    if isinstance(origin, type):
        return _of_class(origin)
    return None


def _literal(values: tuple[object, ...]) -> Expected | None:
    if not values or not all(isinstance(value, (str, int)) for value in values):
        return None
    choices = tuple(value for value in values if value is not None)
    return Expected(choices=choices, none=None in values)


def _resolve(node: ast.expr, namespace: Mapping[str, Any]) -> Any:
    """The object a name or dotted name of an annotation refers to; ``_UNKNOWN`` if none."""
    if isinstance(node, ast.Name):
        if node.id in namespace:
            return namespace[node.id]
        return getattr(builtins, node.id, _UNKNOWN)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, namespace)
        if owner is _UNKNOWN:
            return _UNKNOWN
        return getattr(owner, node.attr, _UNKNOWN)
    return _UNKNOWN


_UNKNOWN = object()


def _of_node(node: ast.expr, namespace: Mapping[str, Any]) -> Expected | None:
    """The expectation of an annotation's syntax tree (names looked up, nothing evaluated)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([_of_node(node.left, namespace), _of_node(node.right, namespace)])
    if isinstance(node, ast.Constant):
        if node.value is None:
            return _NONE
        if isinstance(node.value, str):  # a quoted forward reference
            return _of_text(node.value, namespace)
        return None
    if isinstance(node, ast.Subscript):
        origin = _resolve(node.value, namespace)
        arguments = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if origin is typing.Optional:
            return _union([_of_node(arguments[0], namespace), _NONE])
        if origin is typing.Union:
            return _union([_of_node(argument, namespace) for argument in arguments])
        if origin is typing.Literal:
            if not all(isinstance(argument, ast.Constant) for argument in arguments):
                return None
            return _literal(tuple(argument.value for argument in arguments))  # type: ignore[attr-defined]
        if origin is _UNKNOWN:
            return None
        return _of_generic(typing.get_origin(origin) or origin)
    resolved = _resolve(node, namespace)
    return None if resolved is _UNKNOWN else _of_object(resolved)


def _of_text(text: str, namespace: Mapping[str, Any]) -> Expected | None:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    return _of_node(tree.body, namespace)


def expected_of(annotation: object, namespace: Mapping[str, Any]) -> Expected | None:
    """What ``annotation`` (a string, as ``from __future__ import annotations`` leaves it, or
    an object) accepts, names looked up in ``namespace``; ``None`` when it is not checked.

    >>> expected_of("int | None", {}).text()
    'an int or None'
    >>> expected_of("Callable[[int], int]", {"Callable": Callable}).text()
    'a callable'
    >>> expected_of("Fraction | str", {"Fraction": Fraction}) is None
    True
    """
    if annotation is inspect.Parameter.empty:
        return None
    if isinstance(annotation, str):
        return _of_text(annotation, namespace)
    return _of_object(annotation)


# --- the wrapper ----------------------------------------------------------------------


#: One checked parameter: its position in ``*args`` (None for a keyword-only one), its name,
#: the classes accepted, the expectation when more than those classes is accepted (else
#: None), and the expectation (for the message).
_Check = tuple["int | None", str, tuple[type, ...], "Expected | None", Expected]
#: The checks of a function: those of the parameters that can be passed by position (in
#: order), and every check by parameter name.
_Plan = tuple[tuple[_Check, ...], dict[str, _Check]]


def _plan(function: Callable[..., Any], *, drop_first: bool = False) -> _Plan:
    """The checks of ``function``'s annotated parameters (resolved at its first call, when
    every name its module defines exists); ``drop_first``: its first parameter is not passed
    by the caller (a strategy definition's ``draw``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return (), {}
    if drop_first:
        signature = signature.replace(parameters=list(signature.parameters.values())[1:])
    namespace = getattr(inspect.unwrap(function), "__globals__", None)
    if namespace is None:
        module = sys.modules.get(getattr(function, "__module__", "") or "")
        namespace = vars(module) if module is not None else {}
    checks = []
    for position, parameter in enumerate(signature.parameters.values()):
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        expected = expected_of(parameter.annotation, namespace)
        if expected is None:
            continue
        only_classes = bool(expected.classes) and expected == Expected(classes=expected.classes)
        checks.append(
            (
                None if parameter.kind is parameter.KEYWORD_ONLY else position,
                parameter.name,
                expected.classes,
                None if only_classes else expected,
                expected,
            )
        )
    positional = tuple(check for check in checks if check[0] is not None)
    return positional, {check[1]: check for check in checks}


def _refusal(
    where: str, name: str, expected: Expected, value: object, error: type[ExactPMLError]
) -> Exception:
    """The error for a wrong argument: a TypeError too (``InvalidArgumentType``), and for a
    float :class:`~exactpml.errors.InexactInput` (the parameter policy's class), showing it."""
    try:
        shown = abbreviated_repr(value, 60)
    except Exception:  # a value whose repr raises: its type only
        shown = f"<{type(value).__name__}>"
    chosen = expected.choices and type(value) in {type(choice) for choice in expected.choices}
    got = "" if chosen else f", got {type(value).__name__}"
    if error is InvalidArgument:
        error = InexactInput if isinstance(value, float) else InvalidArgumentType
    return error(f"{where}: {name} must be {expected.text()}{got} ({name}={shown})")


def _passes(error: Exception) -> bool:
    """Whether ``error`` crosses the boundary unchanged (see the module docstring)."""
    if isinstance(error, PASSED):
        return True
    package = (type(error).__module__ or "").split(".")[0]
    if package in ("exactpml", "proofs_check"):  # ours: a documented error of the call
        return True
    return package == "hypothesis" and type(error).__name__ != "InvalidArgument"


def _where(function: Callable[..., Any]) -> str:
    qualname = getattr(function, "__qualname__", "") or getattr(function, "__name__", "call")
    if "<locals>" in qualname:
        qualname = getattr(function, "__name__", qualname)
    return qualname.removesuffix(".__init__")


def boundary(
    function: _F,
    *,
    where: str | None = None,
    error: type[ExactPMLError] = InvalidArgument,
    checked_as: Callable[..., Any] | None = None,
) -> _F:
    """``function`` behind a public boundary (see the module docstring).

    Args:
        function: the public function or method (a plain function; wrap a classmethod's
            ``__func__``).
        where: the name in messages (default: its qualified name, ``Class.method``).
        error: the class raised (``InvalidArgument``; the strategies raise a class that is
            also Hypothesis' ``InvalidArgument``).
        checked_as: a function whose annotated parameters, after its first, are
            ``function``'s (a Hypothesis composite's definition, whose first is ``draw``);
            by default ``function``'s own.

    Applying it twice gives the first wrapper (so a function exported twice is one object).
    """
    existing = getattr(function, "__exactpml_boundary__", None)
    if existing is not None or getattr(function, "__exactpml_guarded__", False):
        return existing or function
    name = where or _where(function)
    plan: _Plan | None = None

    def refuse(check: _Check, value: object) -> None:
        _, parameter, _, permissive, expected = check
        if permissive is None or not permissive.accepts(value):
            raise _refusal(name, parameter, expected, value, error)

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        nonlocal plan
        if plan is None:
            plan = _plan(checked_as, drop_first=True) if checked_as else _plan(function)
        positional, by_name = plan
        if positional:
            count = len(args)
            for check in positional:
                if check[0] >= count:  # type: ignore[operator]
                    break
                value = args[check[0]]  # type: ignore[index]
                if not isinstance(value, check[2]):
                    refuse(check, value)
        if kwargs and by_name:
            for parameter, value in kwargs.items():
                named = by_name.get(parameter)
                if named is not None and not isinstance(value, named[2]):
                    refuse(named, value)
        try:
            return function(*args, **kwargs)
        except Exception as foreign:
            if _passes(foreign):
                raise
            raise translated(foreign, name, error=error) from foreign.with_traceback(None)

    guarded.__exactpml_guarded__ = True  # type: ignore[attr-defined]
    try:
        function.__exactpml_boundary__ = guarded  # type: ignore[attr-defined]
    except (AttributeError, TypeError):  # a builtin
        pass
    return guarded  # type: ignore[return-value]


def unguarded(reason: str) -> Callable[[_F], _F]:
    """Leave a public method outside :func:`guard_class` (a method on an inner loop, where a
    wrapper's cost shows); ``reason`` says why, and the method must translate foreign errors
    itself."""

    def mark(function: _F) -> _F:
        function.__exactpml_unguarded__ = reason  # type: ignore[attr-defined]
        return function

    return mark


def _guard_function(function: Callable[..., Any], where: str | None = None) -> Any:
    if getattr(function, "__exactpml_unguarded__", None):
        return function
    return boundary(function, where=where)


def _has_parameters(function: Callable[..., Any], skip: int) -> bool:
    try:
        return len(inspect.signature(function).parameters) > skip
    except (TypeError, ValueError):
        return False


def guard_class(cls: type) -> type:
    """Put the public methods of ``cls`` (those defined in its own body, with at least one
    parameter besides ``self``/``cls``; classmethods and staticmethods included) and its
    constructor behind a boundary, in place, and make a record's ``repr``/``str`` work at any
    size (:func:`~exactpml.core.display.printable_record`).  Exceptions are left alone."""
    if cls.__dict__.get("__exactpml_guarded_class__") or issubclass(cls, BaseException):
        return cls
    printable_record(cls)  # a record's repr and str work at any size
    for name, attribute in list(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        where = cls.__qualname__ if name == "__init__" else f"{cls.__qualname__}.{name}"
        if isinstance(attribute, (classmethod, staticmethod)):
            inner = attribute.__func__
            skip = 1 if isinstance(attribute, classmethod) else 0
            if _has_parameters(inner, skip):
                setattr(cls, name, type(attribute)(_guard_function(inner, where)))
        elif isinstance(attribute, types.FunctionType) and _has_parameters(attribute, 1):
            setattr(cls, name, _guard_function(attribute, where))
    cls.__exactpml_guarded_class__ = True  # type: ignore[attr-defined]
    return cls


def _ours(value: object) -> bool:
    module = getattr(value, "__module__", "") or ""
    return module.split(".")[0] in ("exactpml", "proofs_check")


def guard_public_names(namespace: dict[str, Any]) -> None:
    """Put every function of ``namespace["__all__"]`` behind its boundary (in ``namespace``
    and under every name the defining module binds it to), and guard every class of it
    (:func:`guard_class`).  Called last by each public module's ``__init__``."""
    for name in namespace.get("__all__", ()):
        value = namespace.get(name)
        if isinstance(value, type):
            if _ours(value):
                guard_class(value)
            continue
        if not isinstance(value, types.FunctionType) or not _ours(value):
            continue
        if getattr(value, "__exactpml_guarded__", False) or getattr(
            value, "__exactpml_unguarded__", None
        ):
            continue
        guarded = boundary(value)
        namespace[name] = guarded
        module = sys.modules.get(value.__module__)
        if module is not None and vars(module) is not namespace:
            for bound_name, bound in list(vars(module).items()):
                if bound is value:
                    setattr(module, bound_name, guarded)
        for bound_name, bound in list(namespace.items()):
            if bound is value:
                namespace[bound_name] = guarded
