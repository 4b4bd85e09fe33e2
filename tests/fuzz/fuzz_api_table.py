"""The public API as a table: one valid baseline call per public callable.

:data:`PUBLIC_MODULES` are the modules whose ``__all__`` is exactpml's public API;
:func:`public_callables` lists every callable they export (each object once, under the
first name it is found by).  :data:`BASELINES` holds one valid call of each (and of the
public methods of the value objects that take user values); :data:`NOT_FUZZED` names the
callables left out, each with its reason.  ``test_public_api_table.py`` keeps the three in
step (a new public function without a baseline fails it) and runs every baseline, which
must give a value: the fuzz tests replace one or two of a baseline's arguments by hostile
values, so each failure they find is the hostile value's doing.

Record types that a function returns (``WorstCase``, ``Supremum``, ...) get as baseline
the fields of a real result (:func:`_record`), so their constructors are fuzzed with the
values they are meant to hold.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

PUBLIC_MODULES = (
    "exactpml",
    "exactpml.errors",
    "exactpml.leakage",
    "exactpml.suprema",
    "exactpml.families",
    "exactpml.certify",
    "exactpml.limits",
    "exactpml.continuous",
    "exactpml.database",
    "exactpml.notions",
    "exactpml.structured",
    "exactpml.partial_knowledge",
    "exactpml.bldp",
    "exactpml.instances.threshold_query",
    "exactpml.instances.laplace_counting",
    "exactpml.qif",
    "exactpml.io",
    "exactpml.render",
    "exactpml.latex_text",
    "exactpml.plots",
    "exactpml.testing",
    "exactpml.strategies",
    "exactpml.cli",
    "proofs_check",
)


def public_callables() -> dict[str, Any]:
    """Every callable exported by :data:`PUBLIC_MODULES`, by its first public name."""
    found: dict[str, Any] = {}
    seen: set[int] = set()
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if callable(value) and not inspect.ismodule(value) and id(value) not in seen:
                seen.add(id(value))
                found[f"{module_name}.{name}"] = value
    return found


@dataclass(frozen=True)
class Baseline:
    """A valid call: ``function(*args, **kwargs)``, named by its public name."""

    name: str
    function: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    documented: tuple[type[BaseException], ...] = ()  # raised by contract

    @property
    def module(self) -> str:
        """The package that defines the function (``exactpml.qif``, ``proofs_check``)."""
        defining = getattr(self.function, "__module__", None) or self.name
        parts = defining.split(".")
        return ".".join(parts[:2]) if parts[0] == "exactpml" else parts[0]

    def signature(self) -> inspect.Signature:
        """The function's signature; for a class without one (an exception), the call's own
        arguments as ``arg0, arg1, ...`` and its keywords."""
        try:
            return inspect.signature(self.function)
        except (TypeError, ValueError):
            Parameter = inspect.Parameter
            return inspect.Signature(
                [Parameter(f"arg{i}", Parameter.POSITIONAL_ONLY) for i in range(len(self.args))]
                + [Parameter(name, Parameter.KEYWORD_ONLY) for name in self.kwargs]
            )

    def bound(self) -> inspect.BoundArguments:
        """The call's arguments by parameter name, defaults included."""
        bound = self.signature().bind(*self.args, **self.kwargs)
        bound.apply_defaults()
        return bound

    def parameters(self) -> tuple[str, ...]:
        """The parameters a fuzz test may replace: every named one, defaults included, but
        not a private one (``_pair``: internal fields of a record)."""
        signature = self.signature()
        return tuple(
            name
            for name, parameter in signature.parameters.items()
            if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
            and not name.startswith("_")
        )

    def call_with(self, replacements: dict[str, Any]) -> Callable[[], Any]:
        """The call with some arguments replaced (by parameter name), not yet made."""
        bound = self.bound()
        for name, value in replacements.items():
            bound.arguments[name] = value
        function = self.function
        return lambda: function(*bound.args, **bound.kwargs)


# --- the objects the baselines are built from ------------------------------------------


def _objects() -> dict[str, Any]:
    from exactpml import (
        BoundedLeakageModel,
        ContinuousMechanism,
        DatabaseMechanism,
        DatabaseSpace,
        Distribution,
        GainFunction,
        LogValue,
        Mechanism,
        PartialKnowledge,
        ProductPrior,
    )
    from exactpml.partial_knowledge import thresholded_counting
    from exactpml.structured import randomized_response

    channel = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    coin = Distribution({0: "1/2", 1: "1/2"})
    return {
        "channel": channel,
        "prior": Distribution({"a": "1/2", "b": "1/2"}),
        "skewed": Distribution({"a": "1/3", "b": "2/3"}),
        "p": Distribution({0: "1/2", 1: "1/2", 2: 0}),
        "q": Distribution({0: "1/4", 1: 0, 2: "3/4"}),
        "coin": coin,
        "biased": Distribution({0: "1/4", 1: "3/4"}),
        "rr": DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}}),
        "local": randomized_response([0, 1], 3),
        "space": DatabaseSpace([0, 1], 2),
        "pair": DatabaseMechanism.from_function(
            lambda d: {sum(d): "3/4", -1: "1/4"}, [0, 1], 2, outputs=[0, 1, 2, -1]
        ),
        "product": ProductPrior([coin, coin]),
        "gain": GainFunction.identity(["a", "b"]),
        "log": LogValue(Fraction(9, 5)),
        "laplace": ContinuousMechanism.laplace({0: 0, 1: 1}, scale=1),
        "setting": PartialKnowledge([coin] * 3, target=0, value=0, alternative=1, known=[1]),
        "release": thresholded_counting(1),
        "model": BoundedLeakageModel(
            coin, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)]
        ),
        "t": sympy.Symbol("t", positive=True),
        "y": sympy.Symbol("y", real=True),
    }


OBJECTS = _objects()


def _record(name: str, instance: Any) -> Baseline:
    """A record type's constructor called with the fields of a real instance."""
    cls = type(instance)
    accepted = inspect.signature(cls).parameters
    fields = {
        item.name: getattr(instance, item.name)
        for item in dataclasses.fields(instance)
        if item.name in accepted
    }
    return Baseline(name, cls, (), fields)


def _baselines() -> list[Baseline]:
    import exactpml
    from exactpml import (
        bldp,
        certify,
        continuous,
        database,
        errors,
        families,
        io,
        latex_text,
        leakage,
        limits,
        notions,
        partial_knowledge,
        plots,
        render,
        strategies,
        structured,
        suprema,
        testing,
    )
    from exactpml.instances import laplace_counting as lc
    from exactpml.instances import threshold_query as tq

    channel, prior, p, q = OBJECTS["channel"], OBJECTS["prior"], OBJECTS["p"], OBJECTS["q"]
    coin, rr, space, gain = OBJECTS["coin"], OBJECTS["rr"], OBJECTS["space"], OBJECTS["gain"]
    setting, release, model, t = (
        OBJECTS["setting"],
        OBJECTS["release"],
        OBJECTS["model"],
        OBJECTS["t"],
    )
    laplace = OBJECTS["laplace"]
    attribute = {"a": 0, "b": 1}.__getitem__
    pld = notions.privacy_loss_distribution(p, q)
    curve = notions.tradeoff_curve(p, q)
    lattice_pld = notions.certified_laplace_pld(1, resolution=Fraction(1, 16))
    full = families.FullSupportPriors(["a", "b"])
    sup = suprema.sup_pml(channel, full, output=0)
    laws = partial_knowledge.knowledge_laws(setting, release)
    model_result = bldp.bldp_epsilon(model)
    query = structured.QueryMechanism(
        space, structured.CountingQuery(lambda d: d), noise=structured.GeometricNoise("1/2")
    )
    B = Baseline  # short: one row per call
    table = [
        # --- exactpml: value objects and bounds ---------------------------------------
        B("exactpml.Distribution", exactpml.Distribution, ({"a": "1/3", "b": "2/3"},)),
        B("exactpml.Distribution.uniform", exactpml.Distribution.uniform, (["a", "b"],)),
        B("exactpml.Distribution.point_mass", exactpml.Distribution.point_mass, ("a", ["a", "b"])),
        B("exactpml.Distribution.product", exactpml.Distribution.product, ([coin, coin],)),
        B("exactpml.Distribution.get", prior.get, ("a",)),
        B("exactpml.Distribution.map", prior.map, (str.upper,)),
        B("exactpml.Distribution.marginal", OBJECTS["product"].marginal, (0,)),
        B("exactpml.Distribution.condition_on", prior.condition_on, (lambda x: x == "a",)),
        B("exactpml.Mechanism", exactpml.Mechanism, ({"a": {0: "3/4", 1: "1/4"}, "b": {0: 1}},)),
        B(
            "exactpml.Mechanism.from_matrix",
            exactpml.Mechanism.from_matrix,
            ([["1/2", "1/2"], [1, 0]],),
        ),
        B(
            "exactpml.Mechanism.from_function",
            exactpml.Mechanism.from_function,
            (lambda x: {x: "1/2", "other": "1/2"}, ["a", "b"]),
        ),
        B(
            "exactpml.Mechanism.deterministic",
            exactpml.Mechanism.deterministic,
            (str.upper, ["a", "b"]),
        ),
        B("exactpml.Mechanism.identity", exactpml.Mechanism.identity, (["a", "b"],)),
        B("exactpml.Mechanism.probability", channel.probability, ("a", 0)),
        B("exactpml.Mechanism.row", channel.row, ("a",)),
        B("exactpml.Mechanism.column", channel.column, (0,)),
        B("exactpml.Mechanism.check_prior", channel.check_prior, (prior,)),
        B("exactpml.Mechanism.joint", channel.joint, (prior,)),
        B("exactpml.Mechanism.output_masses", channel.output_masses, (prior,)),
        B("exactpml.Mechanism.output_distribution", channel.output_distribution, (prior,)),
        B("exactpml.Mechanism.posterior", channel.posterior, (prior, 0)),
        B(
            "exactpml.Mechanism.post_process",
            channel.post_process,
            (exactpml.Mechanism({0: {"y": 1}, 1: {"n": 1}}),),
        ),
        B("exactpml.Mechanism.parallel", channel.parallel, (channel,)),
        B("exactpml.Mechanism.mixture", channel.mixture, (channel, "1/3")),
        B("exactpml.Mechanism.product", channel.product, (channel,)),
        B("exactpml.Mechanism.restrict", channel.restrict, (["a"],)),
        B("exactpml.LogValue", exactpml.LogValue, (Fraction(9, 5),)),
        B("exactpml.LogValue.log", exactpml.LogValue.log, ("9/5",)),
        B("exactpml.LogValue.decimal", OBJECTS["log"].decimal, (20,)),
        B("exactpml.LogValue.compare", OBJECTS["log"].compare, (1,)),
        B("exactpml.exact", exactpml.exact, ("1/3 + log(2)",), {"where": "entry"}),
        B("exactpml.Bounds", exactpml.Bounds, (), {"entry_characters": 1000}),
        B("exactpml.current_bounds", exactpml.current_bounds),
        B("exactpml.use_bounds", exactpml.use_bounds, (), {"decimal_digits": 100}),
        B(
            "exactpml.BoundExceeded",
            exactpml.BoundExceeded,
            ("too big",),
            {"bound": "decimal_digits", "limit": 10},
        ),
        B("exactpml.ExactPMLError", exactpml.ExactPMLError, ("a message",)),
        B("exactpml.InvalidArgument", exactpml.InvalidArgument, ("a message",)),
        B("exactpml.InexactInput", exactpml.InexactInput, ("a message",)),
        B("exactpml.InvalidFile", exactpml.InvalidFile, ("a message",)),
        B(
            "exactpml.Undecided",
            exactpml.Undecided,
            ("a message",),
            {"expression": sympy.log(2) - 1, "precision": 64},
        ),
        B(
            "exactpml.io.FileBoundExceeded",
            io.FileBoundExceeded,
            ("too big",),
            {"bound": "file_bytes", "limit": 10},
        ),
        # --- leakage -------------------------------------------------------------------
        B(
            "exactpml.pointwise_maximal_leakage",
            exactpml.pointwise_maximal_leakage,
            (channel, prior, 0),
        ),
        B("exactpml.pml", exactpml.pml, (channel, prior, 0), {"attribute": attribute}),
        B(
            "exactpml.pointwise_maximal_leakage_by_output",
            exactpml.pointwise_maximal_leakage_by_output,
            (channel, prior),
        ),
        B(
            "exactpml.max_pointwise_maximal_leakage",
            exactpml.max_pointwise_maximal_leakage,
            (channel, prior),
        ),
        B(
            "exactpml.conditional_pointwise_maximal_leakage",
            exactpml.conditional_pointwise_maximal_leakage,
            (channel, prior, 0),
            {"given": lambda x: 0, "value": 0},
        ),
        B("exactpml.guessing_gain", exactpml.guessing_gain, (channel, prior, 0, attribute)),
        B("exactpml.posterior_min_entropy", exactpml.posterior_min_entropy, (channel, prior, 0)),
        B("exactpml.pml_joint_divergence", exactpml.pml_joint_divergence, (channel, prior)),
        B("exactpml.is_pml_private", exactpml.is_pml_private, (channel, prior, 1)),
        B(
            "exactpml.probability_leakage_at_most",
            exactpml.probability_leakage_at_most,
            (channel, prior, "1/2"),
        ),
        B("exactpml.leakage_capacity", exactpml.leakage_capacity, (channel,)),
        B("exactpml.maximal_leakage", exactpml.maximal_leakage, (channel, prior)),
        B("exactpml.discloses", exactpml.discloses, (channel, attribute, prior)),
        B("exactpml.disclosing_outputs", exactpml.disclosing_outputs, (channel, attribute, prior)),
        B("exactpml.singles_out", exactpml.singles_out, (channel, prior)),
        B("exactpml.min_entropy", exactpml.min_entropy, (prior,)),
        B("exactpml.kl_divergence", exactpml.kl_divergence, (OBJECTS["biased"], coin)),
        B(
            "exactpml.renyi_divergence_inf",
            exactpml.renyi_divergence_inf,
            (OBJECTS["biased"], coin),
        ),
        B("exactpml.total_variation", exactpml.total_variation, (OBJECTS["biased"], coin)),
        B("exactpml.leakage.as_attribute", leakage.as_attribute, (attribute, channel)),
        B(
            "exactpml.leakage.hockey_stick",
            leakage.hockey_stick,
            ([Fraction(1, 2)] * 2, [Fraction(1, 4), Fraction(3, 4)], 1),
        ),
        B(
            "exactpml.leakage.max_ratio",
            leakage.max_ratio,
            ([Fraction(1, 2)] * 2, [Fraction(1, 4), Fraction(3, 4)]),
        ),
        B(
            "exactpml.leakage.require_full_support_prior",
            leakage.require_full_support_prior,
            (prior,),
        ),
        # --- suprema and families ------------------------------------------------------
        B("exactpml.FullSupportPriors", exactpml.FullSupportPriors, (["a", "b"],)),
        B("exactpml.FinitePriors", exactpml.FinitePriors, ([prior, OBJECTS["skewed"]],)),
        B("exactpml.ProductPriors", exactpml.ProductPriors, ([0, 1], 2)),
        B(
            "exactpml.IIDPriors",
            exactpml.IIDPriors,
            ([0, 1], 2),
            {"predicate": lambda d: d, "c": "1/4"},
        ),
        B("exactpml.ParameterDomain", exactpml.ParameterDomain, (0, 1)),
        B(
            "exactpml.ParametricPriors",
            exactpml.ParametricPriors,
            ({"a": 1 - t, "b": t}, t, exactpml.ParameterDomain(0, 1)),
        ),
        B("exactpml.ParameterDomain.contains", exactpml.ParameterDomain(0, 1).contains, ("1/2",)),
        B("exactpml.ParameterDomain.require", exactpml.ParameterDomain(0, 1).require, ("1/2",)),
        B(
            "exactpml.ParametricPriors.at",
            exactpml.ParametricPriors({"a": 1 - t, "b": t}, t, (0, 1)).at,
            ("1/3",),
        ),
        B("exactpml.FullSupportPriors.contains", full.contains, (prior,)),
        B("exactpml.sup_pml", exactpml.sup_pml, (channel, full), {"output": 0}),
        B(
            "exactpml.sup_conditional_pml",
            exactpml.sup_conditional_pml,
            (
                _pair_kernel(),
                families.ProductPriors([0, 1], 2),
            ),
            {"output": 0, "entry": 0},
        ),
        B(
            "exactpml.sup_entry_leakage",
            exactpml.sup_entry_leakage,
            (_pair_kernel(), families.ProductPriors([0, 1], 2)),
            {"output": 0, "entry": 0},
        ),
        B("exactpml.sup_guessing_gain", exactpml.sup_guessing_gain, (channel, prior, 0)),
        B(
            "exactpml.suprema.shattering_construction",
            suprema.shattering_construction,
            (channel, prior, 0),
        ),
        _record("exactpml.Supremum", sup),
        _record("exactpml.Instance", exactpml.Instance(channel, prior, 0)),
        B("exactpml.Instance.leakage", exactpml.Instance(channel, prior, 0).leakage),
        B("exactpml.certify.sign", certify.sign, (sympy.log(3) - 1,)),
        B("exactpml.certify.compare", certify.compare, (sympy.log(3), 1)),
        B("exactpml.certify.to_float", certify.to_float, (sympy.log(3),)),
        B("exactpml.certify.decimal", certify.decimal, (sympy.log(3), 20)),
        B("exactpml.certify.enclosure", certify.enclosure, (sympy.log(3), 64)),
        B("exactpml.certify.is_equal", certify.is_equal, (sympy.log(4), 2 * sympy.log(2))),
        B("exactpml.certify.is_greater", certify.is_greater, (sympy.log(3), 1)),
        B("exactpml.certify.is_greater_equal", certify.is_greater_equal, (sympy.log(3), 1)),
        B("exactpml.certify.is_less", certify.is_less, (1, sympy.log(3))),
        B("exactpml.certify.is_less_equal", certify.is_less_equal, (1, sympy.log(3))),
        B("exactpml.certify.proves_zero", certify.proves_zero, (sympy.sqrt(2) ** 2 - 2,)),
        B("exactpml.limits.limit", limits.limit, ((1 - t) / (t * (1 + t)) - 1 / t, t, "0+")),
        # --- continuous ----------------------------------------------------------------
        B(
            "exactpml.ContinuousMechanism",
            exactpml.ContinuousMechanism,
            (
                {0: sympy.exp(-abs(OBJECTS["y"])) / 2, 1: sympy.exp(-abs(OBJECTS["y"] - 1)) / 2},
                OBJECTS["y"],
            ),
        ),
        B(
            "exactpml.ContinuousMechanism.laplace",
            exactpml.ContinuousMechanism.laplace,
            ({0: 0, 1: 1}, 1),
        ),
        B(
            "exactpml.ContinuousMechanism.gaussian",
            exactpml.ContinuousMechanism.gaussian,
            ({0: 0, 1: 1}, 1),
        ),
        B(
            "exactpml.ContinuousMechanism.geometric",
            exactpml.ContinuousMechanism.geometric,
            ({0: 0, 1: 1}, "1/2"),
        ),
        B("exactpml.ContinuousMechanism.density", laplace.density, (0, "1/2")),
        B(
            "exactpml.continuous.pointwise_maximal_leakage_at",
            continuous.pointwise_maximal_leakage_at,
            (laplace, coin, "1/2"),
        ),
        B("exactpml.continuous.measure_at", continuous.measure_at, (laplace, coin, "1/2", "pml")),
        B("exactpml.continuous.pml_closed_form", continuous.pml_closed_form, (laplace, coin)),
        B(
            "exactpml.continuous.sup_pml_over_outputs",
            continuous.sup_pml_over_outputs,
            (laplace, coin),
        ),
        B("exactpml.continuous.leakage_capacity_of", continuous.leakage_capacity_of, (laplace,)),
        B("exactpml.continuous.disclosure", continuous.disclosure, (laplace, lambda x: x, coin)),
        # --- databases -----------------------------------------------------------------
        B("exactpml.DatabaseSpace", exactpml.DatabaseSpace, ([0, 1], 2)),
        B("exactpml.DatabaseSpace.neighbours", space.neighbours, ((0, 1),)),
        B("exactpml.DatabaseSpace.distance", space.distance, ((0, 1), (1, 1))),
        B("exactpml.DatabaseSpace.pairs_at_distance", space.pairs_at_distance, (2,)),
        B("exactpml.DatabaseSpace.insert", space.insert, ((0,), 1, 1)),
        B(
            "exactpml.DatabaseMechanism",
            exactpml.DatabaseMechanism,
            ({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}},),
        ),
        B(
            "exactpml.DatabaseMechanism.from_function",
            exactpml.DatabaseMechanism.from_function,
            (lambda d: {d[0]: 1}, [0, 1], 1),
        ),
        B("exactpml.DatabaseMechanism.probability", rr.probability, ((0,), 0)),
        B("exactpml.ProductPrior", exactpml.ProductPrior, ([coin, OBJECTS["biased"]],)),
        B("exactpml.ProductPrior.iid", exactpml.ProductPrior.iid, (coin, 3)),
        B("exactpml.ProductPrior.probability", OBJECTS["product"].probability, ((0, 1),)),
        B(
            "exactpml.entry_leakage",
            exactpml.entry_leakage,
            (OBJECTS["pair"], OBJECTS["product"], 0, 1),
        ),
        B(
            "exactpml.conditional_entry_leakage",
            exactpml.conditional_entry_leakage,
            (OBJECTS["pair"], OBJECTS["product"], 0, 1, (1,)),
        ),
        B("exactpml.database.as_database_mechanism", database.as_database_mechanism, (rr,)),
        B(
            "exactpml.database.check_database_prior",
            database.check_database_prior,
            (space, OBJECTS["product"]),
        ),
        B("exactpml.database.check_index", database.check_index, (1, 2)),
        B(
            "exactpml.database.entry_conditional",
            database.entry_conditional,
            (OBJECTS["product"], 0, (1,)),
        ),
        B("exactpml.database.entry_marginal", database.entry_marginal, (OBJECTS["product"], 0)),
        B("exactpml.database.explicit_reduction", database.explicit_reduction, (OBJECTS["pair"],)),
        B(
            "exactpml.database.joint_prior",
            database.joint_prior,
            (space, {(0, 0): "1/2", (1, 1): "1/2"}),
        ),
        B("exactpml.database.random_row_mechanism", database.random_row_mechanism, ([0, 1], 2)),
        # --- notions -------------------------------------------------------------------
        B("exactpml.differential_privacy_epsilon", exactpml.differential_privacy_epsilon, (rr,)),
        B("exactpml.free_lunch_epsilon", exactpml.free_lunch_epsilon, (rr,)),
        B("exactpml.is_differentially_private", exactpml.is_differentially_private, (rr, 2)),
        B("exactpml.is_free_lunch_private", exactpml.is_free_lunch_private, (rr, 2)),
        B("exactpml.delta_for_epsilon", exactpml.delta_for_epsilon, (rr, "1/2")),
        B(
            "exactpml.composition_delta_for_epsilon",
            exactpml.composition_delta_for_epsilon,
            (rr, 2, 1),
        ),
        B(
            "exactpml.composition_epsilon_for_delta",
            exactpml.composition_epsilon_for_delta,
            (rr, 2, "1/10"),
        ),
        B("exactpml.privacy_loss_distribution", exactpml.privacy_loss_distribution, (p, q)),
        _record("exactpml.PrivacyLossDistribution", pld),
        B(
            "exactpml.PrivacyLossDistribution.from_privacy_parameters",
            exactpml.PrivacyLossDistribution.from_privacy_parameters,
            (1,),
            {"delta": "1/10"},
        ),
        B("exactpml.PrivacyLossDistribution.delta_for_epsilon", pld.delta_for_epsilon, ("1/2",)),
        B("exactpml.PrivacyLossDistribution.delta", pld.delta, ("1/2",)),
        B("exactpml.PrivacyLossDistribution.epsilon_for_delta", pld.epsilon_for_delta, ("1/10",)),
        B("exactpml.PrivacyLossDistribution.compose", pld.compose, (pld,)),
        B("exactpml.PrivacyLossDistribution.self_compose", pld.self_compose, (3,)),
        B("exactpml.PrivacyLossDistribution.renyi_divergence", pld.renyi_divergence, (2,)),
        B("exactpml.renyi_divergence", exactpml.renyi_divergence, (OBJECTS["biased"], coin, 2)),
        B(
            "exactpml.notions.renyi_divergence_bounds",
            exactpml.notions.renyi_divergence_bounds,
            (OBJECTS["biased"], coin, 10**6),
        ),
        B("exactpml.renyi_dp_epsilon", exactpml.renyi_dp_epsilon, (rr, 2)),
        B("exactpml.simulation_epsilon", exactpml.simulation_epsilon, (rr,)),
        B("exactpml.tradeoff_curve", exactpml.tradeoff_curve, (p, q)),
        B("exactpml.notions.TradeoffCurve.conjugate", curve.conjugate, ("1/2",)),
        B("exactpml.notions.TradeoffCurve.delta_for_epsilon", curve.delta_for_epsilon, ("1/2",)),
        B("exactpml.notions.TradeoffCurve.dominates", curve.dominates, (curve,)),
        B(
            "exactpml.notions.advanced_composition",
            notions.advanced_composition,
            (1,),
            {"k": 2, "slack": "1/10"},
        ),
        B("exactpml.notions.basic_composition", notions.basic_composition, (1,), {"k": 2}),
        B(
            "exactpml.notions.optimal_composition",
            notions.optimal_composition,
            (1,),
            {"k": 2, "i": 1},
        ),
        B("exactpml.notions.dp_to_zcdp_rho", notions.dp_to_zcdp_rho, (1,)),
        B("exactpml.notions.dp_tradeoff_curve", notions.dp_tradeoff_curve, (1,), {"delta": "1/10"}),
        B(
            "exactpml.notions.gaussian_calibration",
            notions.gaussian_calibration,
            (1,),
            {"delta": "1/10", "tolerance": "1/100"},
        ),
        B(
            "exactpml.notions.gaussian_delta_for_epsilon",
            notions.gaussian_delta_for_epsilon,
            (1, 1),
        ),
        B(
            "exactpml.notions.laplace_calibration",
            notions.laplace_calibration,
            (1,),
            {"delta": "1/10"},
        ),
        B("exactpml.notions.laplace_delta_for_epsilon", notions.laplace_delta_for_epsilon, (2, 1)),
        B(
            "exactpml.notions.hockey_stick_divergence",
            notions.hockey_stick_divergence,
            (p, q),
            {"epsilon": "1/2"},
        ),
        B(
            "exactpml.notions.hockey_stick_event",
            notions.hockey_stick_event,
            (p, q),
            {"epsilon": "1/2"},
        ),
        B("exactpml.notions.is_locally_private", notions.is_locally_private, (OBJECTS["local"], 2)),
        B(
            "exactpml.notions.local_privacy_epsilon",
            notions.local_privacy_epsilon,
            (OBJECTS["local"],),
        ),
        B(
            "exactpml.notions.neighbour_privacy_loss_distributions",
            notions.neighbour_privacy_loss_distributions,
            (rr,),
        ),
        B(
            "exactpml.notions.neighbour_statistical_distance",
            notions.neighbour_statistical_distance,
            (rr,),
        ),
        B(
            "exactpml.notions.optimal_simulator",
            notions.optimal_simulator,
            (OBJECTS["pair"], 0, (1,)),
        ),
        B(
            "exactpml.notions.poisson_amplification",
            notions.poisson_amplification,
            (1,),
            {"rate": "1/2"},
        ),
        B(
            "exactpml.notions.poisson_subsampled",
            notions.poisson_subsampled,
            (
                exactpml.DatabaseMechanism.from_function(
                    lambda x: {x[0]: 1}, [database.BOTTOM, 0, 1], 1
                ),
                "1/4",
            ),
        ),
        B(
            "exactpml.notions.rdp_to_dp_epsilon",
            notions.rdp_to_dp_epsilon,
            (1,),
            {"order": 2, "delta": "1/10"},
        ),
        B(
            "exactpml.notions.subsampled_without_replacement",
            notions.subsampled_without_replacement,
            (exactpml.DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [0, 1], 1), 2),
        ),
        B(
            "exactpml.notions.without_replacement_amplification",
            notions.without_replacement_amplification,
            (1,),
            {"sample": 1, "size": 2},
        ),
        B("exactpml.notions.zcdp_rho", notions.zcdp_rho, (rr,), {"tolerance": "1/100"}),
        B("exactpml.notions.zcdp_to_dp_epsilon", notions.zcdp_to_dp_epsilon, ("1/2", "1/100")),
        B("exactpml.notions.zcdp_to_rdp_epsilon", notions.zcdp_to_rdp_epsilon, ("1/2", 4)),
        _record("exactpml.notions.WorstCase", exactpml.differential_privacy_epsilon(rr)),
        _record("exactpml.notions.PrivacyParameters", notions.basic_composition(1, k=2)),
        _record(
            "exactpml.notions.Calibration",
            notions.gaussian_calibration(1, delta="1/10", tolerance="1/100"),
        ),
        _record("exactpml.notions.TradeoffCurve", curve),
        _record(
            "exactpml.notions.NeighbourLoss", notions.neighbour_privacy_loss_distributions(rr)[0]
        ),
        _record("exactpml.notions.OptimalSimulation", exactpml.simulation_epsilon(rr)),
        _record("exactpml.notions.ZCDPBounds", notions.zcdp_rho(rr, tolerance="1/100")),
        # --- notions: certified accounting (coarse lattices: each call well under 1 s) ---
        B(
            "exactpml.notions.dpsgd_epsilon",
            notions.dpsgd_epsilon,
            (1, Fraction(1, 10), 3, Fraction(1, 1000)),
            {"width": Fraction(1, 2)},
        ),
        B(
            "exactpml.notions.dpsgd_delta",
            notions.dpsgd_delta,
            (1, Fraction(1, 10), 3, 1),
            {"width": Fraction(1, 2)},
        ),
        B(
            "exactpml.notions.certified_gaussian_pld",
            notions.certified_gaussian_pld,
            (1,),
            {"resolution": Fraction(1, 16)},
        ),
        B(
            "exactpml.notions.certified_laplace_pld",
            notions.certified_laplace_pld,
            (1,),
            {"resolution": Fraction(1, 16)},
        ),
        B(
            "exactpml.notions.certified_pld",
            notions.certified_pld,
            (pld,),
            {"resolution": Fraction(1, 16)},
        ),
        _record("exactpml.notions.CertifiedPLD", lattice_pld),
        B("exactpml.notions.CertifiedPLD.compose", lattice_pld.compose, (lattice_pld,)),
        B("exactpml.notions.CertifiedPLD.self_compose", lattice_pld.self_compose, (2,)),
        B(
            "exactpml.notions.CertifiedPLD.delta_for_epsilon",
            lattice_pld.delta_for_epsilon,
            (1,),
        ),
        B(
            "exactpml.notions.CertifiedPLD.epsilon_for_delta",
            lattice_pld.epsilon_for_delta,
            (Fraction(1, 1000),),
        ),
        _record(
            "exactpml.notions.AccountingBounds",
            lattice_pld.epsilon_for_delta(Fraction(1, 1000)),
        ),
        # --- structured ----------------------------------------------------------------
        B("exactpml.randomized_response", exactpml.randomized_response, ([0, 1], 3)),
        B(
            "exactpml.QueryMechanism",
            exactpml.QueryMechanism,
            (space, structured.CountingQuery(lambda d: d)),
            {"noise": structured.GeometricNoise("1/2"), "threshold": 1},
        ),
        B(
            "exactpml.QueryMechanism.delta_for_epsilon_closed_form",
            query.delta_for_epsilon_closed_form,
            (3,),
        ),
        B("exactpml.QueryMechanism.output_given_count", query.output_given_count, (1,)),
        B("exactpml.CountingQuery", exactpml.CountingQuery, (lambda d: d,)),
        B("exactpml.structured.LinearQuery", structured.LinearQuery, (["1", "1/2"],)),
        B("exactpml.structured.MeanQuery", structured.MeanQuery, ("arithmetic",)),
        B("exactpml.structured.GeometricNoise", structured.GeometricNoise, ("1/2",)),
        B("exactpml.structured.LaplaceNoise", structured.LaplaceNoise, (2,)),
        B("exactpml.structured.NoNoise", structured.NoNoise),
        B("exactpml.structured.AtLeast", structured.AtLeast, (1,)),
        B("exactpml.structured.AtMost", structured.AtMost, (1,)),
        B("exactpml.structured.Window", structured.Window, ((Fraction(0), Fraction(1)), None)),
        B(
            "exactpml.structured.PerRecordMechanism",
            structured.PerRecordMechanism,
            (space, OBJECTS["local"]),
        ),
        B(
            "exactpml.structured.count_distribution",
            structured.count_distribution,
            (["1/2", "1/3"],),
        ),
        B(
            "exactpml.structured.statistic_distribution",
            structured.statistic_distribution,
            ([coin, coin],),
            {"combine": lambda a, b: a + b, "unit": 0},
        ),
        # --- partial knowledge ---------------------------------------------------------
        B(
            "exactpml.PartialKnowledge",
            exactpml.PartialKnowledge,
            ([coin] * 3,),
            {"target": 0, "value": 0, "alternative": 1, "known": [1]},
        ),
        B(
            "exactpml.PartialKnowledge.iid",
            exactpml.PartialKnowledge.iid,
            (coin, 3),
            {"target": 0, "value": 0, "alternative": 1, "known": [1]},
        ),
        B(
            "exactpml.PartialKnowledge.full_knowledge",
            exactpml.PartialKnowledge.full_knowledge,
            ([coin] * 2,),
            {"target": 0, "value": 0, "alternative": 1},
        ),
        B("exactpml.CountingMechanism", exactpml.CountingMechanism, (lambda n: {n >= 1: 1},)),
        B("exactpml.apkdp_delta", exactpml.apkdp_delta, (setting, release, 1)),
        B("exactpml.apkdp_epsilon", exactpml.apkdp_epsilon, (setting, release)),
        B("exactpml.ppkdp_delta", exactpml.ppkdp_delta, (setting, release, 1)),
        B("exactpml.ppkdp_epsilon", exactpml.ppkdp_epsilon, (setting, release)),
        B("exactpml.is_apkdp", exactpml.is_apkdp, (setting, release, 1, "1/2")),
        B("exactpml.is_ppkdp", exactpml.is_ppkdp, (setting, release, 1, "1/2")),
        B(
            "exactpml.knowledge_delta",
            exactpml.knowledge_delta,
            (setting, release, 1, laws.knowledge_values[0]),
        ),
        B(
            "exactpml.partial_knowledge_plrv",
            exactpml.partial_knowledge_plrv,
            (setting, release, _seen_output(laws), laws.knowledge_values[0]),
        ),
        B("exactpml.theta_reducibility", exactpml.theta_reducibility, (setting, release)),
        B(
            "exactpml.partial_knowledge.knowledge_deltas",
            partial_knowledge.knowledge_deltas,
            (setting, release, 1),
        ),
        B(
            "exactpml.partial_knowledge.knowledge_laws",
            partial_knowledge.knowledge_laws,
            (setting, release),
        ),
        B(
            "exactpml.partial_knowledge.check_reducibility_map",
            partial_knowledge.check_reducibility_map,
            (setting, release, laws.knowledge_values[0], laws.knowledge_values[0], lambda y: y),
        ),
        B(
            "exactpml.partial_knowledge.count_numerators",
            partial_knowledge.count_numerators,
            ([Fraction(1, 2)] * 3,),
        ),
        B("exactpml.partial_knowledge.counting_query", partial_knowledge.counting_query),
        B("exactpml.partial_knowledge.linear_query", partial_knowledge.linear_query, (["1", "2"],)),
        B("exactpml.partial_knowledge.arithmetic_mean", partial_knowledge.arithmetic_mean),
        B("exactpml.partial_knowledge.geometric_mean", partial_knowledge.geometric_mean),
        B("exactpml.partial_knowledge.harmonic_mean", partial_knowledge.harmonic_mean),
        B("exactpml.partial_knowledge.quadratic_mean", partial_knowledge.quadratic_mean),
        B(
            "exactpml.partial_knowledge.thresholded_counting",
            partial_knowledge.thresholded_counting,
            (1,),
        ),
        B(
            "exactpml.partial_knowledge.referendum",
            partial_knowledge.referendum,
            (10, 2, "1/10"),
            {"threshold": 3},
        ),
        B("exactpml.partial_knowledge.example_7", partial_knowledge.example_7, (20, 2, 3, "1/10")),
        B("exactpml.partial_knowledge.remark_2", partial_knowledge.remark_2),
        B(
            "exactpml.partial_knowledge.fixed_versus_other_records",
            partial_knowledge.fixed_versus_other_records,
        ),
        B(
            "exactpml.partial_knowledge.reducibility_not_necessary",
            partial_knowledge.reducibility_not_necessary,
        ),
        B("exactpml.partial_knowledge.KnownCount", partial_knowledge.KnownCount, (2,)),
        _record(
            "exactpml.partial_knowledge.ActiveDelta", exactpml.apkdp_delta(setting, release, 1)
        ),
        _record(
            "exactpml.partial_knowledge.ActiveEpsilon", exactpml.apkdp_epsilon(setting, release)
        ),
        _record(
            "exactpml.partial_knowledge.Reducibility", exactpml.theta_reducibility(setting, release)
        ),
        _record(
            "exactpml.partial_knowledge.ReducibleQuery", partial_knowledge.linear_query(["1", "2"])
        ),
        _record(
            "exactpml.partial_knowledge.MapCheck",
            partial_knowledge.check_reducibility_map(
                setting, release, laws.knowledge_values[0], laws.knowledge_values[0], lambda y: y
            ),
        ),
        _record("exactpml.partial_knowledge.KnowledgeLaws", laws),
        _record("exactpml.partial_knowledge.LawPair", laws.pair(laws.knowledge_values[0])),
        # --- bounded-leakage DP --------------------------------------------------------
        B(
            "exactpml.BoundedLeakageModel",
            exactpml.BoundedLeakageModel,
            (coin, lambda x, r: x[0] ^ r, lambda x, r: r),
            {"databases": [(0,), (1,)]},
        ),
        B("exactpml.bldp_epsilon", exactpml.bldp_epsilon, (model,)),
        B("exactpml.bldp_delta", exactpml.bldp_delta, (model, 1)),
        B("exactpml.is_bldp", exactpml.is_bldp, (model, 1, "1/2")),
        B("exactpml.bldp.bldp_epsilon_by_leakage", bldp.bldp_epsilon_by_leakage, (model,)),
        B("exactpml.bldp.bldp_epsilon_by_pair", bldp.bldp_epsilon_by_pair, (model,)),
        B("exactpml.bldp.census_exact_counts", bldp.census_exact_counts, (2, "1/2")),
        B("exactpml.bldp.component", bldp.component, (bldp.compose(model, model), 0)),
        B("exactpml.bldp.compose", bldp.compose, (model, model)),
        B(
            "exactpml.bldp.composition_precondition",
            bldp.composition_precondition,
            (bldp.compose(model, model),),
        ),
        B("exactpml.bldp.constraints", bldp.constraints, (model,)),
        B("exactpml.bldp.dp_delta", bldp.dp_delta, (model, 1)),
        B("exactpml.bldp.dp_epsilon", bldp.dp_epsilon, (model,)),
        B("exactpml.bldp.graph_distances", bldp.graph_distances, (model,)),
        B("exactpml.bldp.group_privacy_bound", bldp.group_privacy_bound, (1, "1/10", 2)),
        B("exactpml.bldp.group_privacy_violations", bldp.group_privacy_violations, (model, 2)),
        B("exactpml.bldp.identity_leakage", bldp.identity_leakage),
        B(
            "exactpml.bldp.independent_leakage",
            bldp.independent_leakage,
            (OBJECTS["rr"].mechanism, lambda x: 0),
        ),
        B("exactpml.bldp.leakage_distance", bldp.leakage_distance, (model, (0,), (1,), 0)),
        B("exactpml.bldp.non_participation", bldp.non_participation, (2, 1, "1/2")),
        B("exactpml.bldp.parity_leakage_group_privacy", bldp.parity_leakage_group_privacy),
        B(
            "exactpml.bldp.post_process",
            bldp.post_process,
            (model, exactpml.Mechanism.identity([0, 1])),
        ),
        B("exactpml.bldp.realize", bldp.realize, (channel,)),
        B("exactpml.bldp.release_leakage", bldp.release_leakage, (model,)),
        B("exactpml.bldp.shared_randomness_composition", bldp.shared_randomness_composition),
        B("exactpml.bldp.single_leakage_composition", bldp.single_leakage_composition),
        B("exactpml.bldp.truncated_geometric", bldp.truncated_geometric, (2, "1/2")),
        _record("exactpml.bldp.BLDPEpsilon", model_result),
        _record("exactpml.bldp.BLDPDelta", exactpml.bldp_delta(model, 1)),
        _record(
            "exactpml.bldp.CompositionCheck",
            bldp.composition_precondition(bldp.compose(model, model)),
        ),
        B("exactpml.bldp.GroupViolation", bldp.GroupViolation, (((0,), (1,)), 0, 1, None)),
        B("exactpml.bldp.LeakageWitness", bldp.LeakageWitness, (((0,), (1,)), 0, frozenset({0}))),
        # --- instances -----------------------------------------------------------------
        B("exactpml.instances.threshold_query.bernoulli_kl", tq.bernoulli_kl, ("1/3", "1/2")),
        B(
            "exactpml.instances.threshold_query.binomial_lower_tail",
            tq.binomial_lower_tail,
            (3, 1, Fraction(1, 2)),
        ),
        B(
            "exactpml.instances.threshold_query.binomial_tail_numerator",
            tq.binomial_tail_numerator,
            (3, 1, 1, 1),
        ),
        B("exactpml.instances.threshold_query.chernoff_bound", tq.chernoff_bound, (200, 0, "3/10")),
        B(
            "exactpml.instances.threshold_query.threshold_query_leakage",
            tq.threshold_query_leakage,
            (3, 1, "3/10"),
        ),
        B(
            "exactpml.instances.laplace_counting.laplace_counting_query",
            lc.laplace_counting_query,
            (2, 1),
        ),
        B(
            "exactpml.instances.laplace_counting.entry_leakage_at",
            lc.entry_leakage_at,
            (2, 1, "1/2", "1/2"),
        ),
        B(
            "exactpml.instances.laplace_counting.entry_leakage_closed_forms",
            lc.entry_leakage_closed_forms,
            (2, 1, "1/2"),
        ),
        B(
            "exactpml.instances.laplace_counting.sup_entry_leakage_over_iid",
            lc.sup_entry_leakage_over_iid,
            (2, 1, "1/4"),
        ),
        B(
            "exactpml.instances.laplace_counting.sup_entry_leakage_over_outputs",
            lc.sup_entry_leakage_over_outputs,
            (2, 1, "1/2"),
        ),
        # --- qif -----------------------------------------------------------------------
        B(
            "exactpml.GainFunction",
            exactpml.GainFunction,
            ({"a": {"a": 1, "b": 0}, "b": {"a": 0, "b": 1}},),
        ),
        B("exactpml.GainFunction.identity", exactpml.GainFunction.identity, (["a", "b"],)),
        B("exactpml.GainFunction.k_tries", exactpml.GainFunction.k_tries, (["a", "b", "c"], 2)),
        B(
            "exactpml.GainFunction.from_metric",
            exactpml.GainFunction.from_metric,
            (["a", "b"], lambda u, v: int(u != v)),
        ),
        B(
            "exactpml.GainFunction.property",
            exactpml.GainFunction.property,
            (["a", "b"], {"a": 0, "b": 1}),
        ),
        B("exactpml.GainFunction.gain", gain.gain, ("a", "a")),
        B("exactpml.bayes_vulnerability", exactpml.bayes_vulnerability, (prior,)),
        B("exactpml.g_vulnerability", exactpml.g_vulnerability, (prior, gain)),
        B(
            "exactpml.posterior_bayes_vulnerability",
            exactpml.posterior_bayes_vulnerability,
            (channel, prior),
        ),
        B(
            "exactpml.posterior_g_vulnerability",
            exactpml.posterior_g_vulnerability,
            (channel, prior, gain),
        ),
        B(
            "exactpml.multiplicative_bayes_leakage",
            exactpml.multiplicative_bayes_leakage,
            (channel, prior),
        ),
        B("exactpml.additive_bayes_leakage", exactpml.additive_bayes_leakage, (channel, prior)),
        B(
            "exactpml.multiplicative_g_leakage",
            exactpml.multiplicative_g_leakage,
            (channel, prior, gain),
        ),
        B("exactpml.additive_g_leakage", exactpml.additive_g_leakage, (channel, prior, gain)),
        B(
            "exactpml.multiplicative_bayes_capacity",
            exactpml.multiplicative_bayes_capacity,
            (channel,),
        ),
        B("exactpml.additive_bayes_capacity", exactpml.additive_bayes_capacity, (channel,)),
        B("exactpml.shannon_entropy", exactpml.shannon_entropy, (prior,)),
        B("exactpml.renyi_entropy", exactpml.renyi_entropy, (OBJECTS["skewed"], 2)),
        B(
            "exactpml.renyi_entropy_bounds",
            exactpml.renyi_entropy_bounds,
            (OBJECTS["skewed"], 10**6),
        ),
        B(
            "exactpml.sibson_mutual_information_bounds",
            exactpml.sibson_mutual_information_bounds,
            (channel, prior, 10**6),
        ),
        _record("exactpml.RenyiBounds", exactpml.renyi_entropy_bounds(OBJECTS["skewed"], 10**6)),
        B("exactpml.conditional_entropy", exactpml.conditional_entropy, (channel, prior)),
        B("exactpml.mutual_information", exactpml.mutual_information, (channel, prior)),
        B(
            "exactpml.sibson_mutual_information",
            exactpml.sibson_mutual_information,
            (channel, prior, 2),
        ),
        B(
            "exactpml.maximal_alpha_leakage",
            exactpml.maximal_alpha_leakage,
            (channel, 2),
            {"tolerance": "1/100"},
        ),
        B("exactpml.guessing_ratio", exactpml.guessing_ratio, (channel, prior, attribute)),
        B("exactpml.shannon_capacity", exactpml.shannon_capacity, (channel, "1/100")),
        B("exactpml.cascade", exactpml.cascade, (channel, exactpml.Mechanism.identity([0, 1]))),
        B("exactpml.parallel", exactpml.parallel, (channel, channel)),
        B("exactpml.output_marginal", exactpml.output_marginal, (channel.parallel(channel), 0)),
        B("exactpml.refines", exactpml.refines, (channel, channel)),
        B("exactpml.refinement_map", exactpml.refinement_map, (channel, channel)),
        B(
            "exactpml.refinement_certificate",
            exactpml.refinement_certificate,
            (channel, exactpml.Mechanism.identity(["a", "b"])),
        ),
        _record("exactpml.Capacity", exactpml.multiplicative_bayes_capacity(channel)),
        _record("exactpml.CapacityBounds", exactpml.shannon_capacity(channel, "1/100")),
        _record(
            "exactpml.RefinementCertificate",
            exactpml.refinement_certificate(channel, exactpml.Mechanism.identity(["a", "b"])),
        ),
        # --- io, render, text, plots, testing ------------------------------------------
        B("exactpml.io.load_json", io.load_json, (_good_file(),)),
        B("exactpml.io.read_mechanism", io.read_mechanism, (_good_file(),)),
        B("exactpml.io.read_prior", io.read_prior, (_good_file("prior"),)),
        B("exactpml.io.exact_to_json", io.exact_to_json, (Fraction(9, 5),)),
        B("exactpml.io.dump_json", io.dump_json, ({"value": OBJECTS["log"]},)),
        B("exactpml.render.to_latex", render.to_latex, (Fraction(9, 5),)),
        B("exactpml.render.to_plain", render.to_plain, (OBJECTS["log"],)),
        B("exactpml.render.CertifiedDecimal", render.CertifiedDecimal, (OBJECTS["log"], 6)),
        B("exactpml.render.ExactTable", render.ExactTable, (["y", "l"], [[0, OBJECTS["log"]]])),
        B(
            "exactpml.render.ExactTable.to_latex",
            render.ExactTable(["y", "l"], [[0, OBJECTS["log"]]]).to_latex,
        ),
        B("exactpml.latex_text.latex_text", latex_text.latex_text, ("ε-DP ≤ 1",)),
        B("exactpml.latex_text.latex_document", latex_text.latex_document, ("body",)),
        B("exactpml.plots.display_float", plots.display_float, (OBJECTS["log"],)),
        B(
            "exactpml.testing.assert_exact_equal",
            testing.assert_exact_equal,
            (Fraction(1, 2), "1/2"),
            {},
            (AssertionError,),
        ),
        B(
            "exactpml.testing.assert_exact_less_equal",
            testing.assert_exact_less_equal,
            (Fraction(1, 2), sympy.log(2)),
            {},
            (AssertionError,),
        ),
        B("exactpml.testing.register_profiles", testing.register_profiles),
        # --- strategies (a value is a drawn example) -----------------------------------
        B("exactpml.strategies.distributions", strategies.distributions, (), {"max_size": 3}),
        B(
            "exactpml.strategies.mechanisms",
            strategies.mechanisms,
            (),
            {"max_inputs": 3, "max_outputs": 3},
        ),
        B(
            "exactpml.strategies.mechanisms_with_prior",
            strategies.mechanisms_with_prior,
            (),
            {"max_inputs": 3},
        ),
        B("exactpml.strategies.mechanisms_with_gain", strategies.mechanisms_with_gain),
        B("exactpml.strategies.probability_vectors", strategies.probability_vectors, (3,)),
        B(
            "exactpml.strategies.fractions",
            strategies.fractions,
            (0, 1),
            {"max_denominator": 12},
        ),
        B("exactpml.strategies.priors_with_support", strategies.priors_with_support, (["a", "b"],)),
        B("exactpml.strategies.attributes", strategies.attributes, (["a", "b"],)),
        B("exactpml.strategies.gain_functions", strategies.gain_functions, (["a", "b"],)),
        B("exactpml.strategies.composed_kernels", strategies.composed_kernels),
        B("exactpml.strategies.distribution_pairs", strategies.distribution_pairs),
        B("exactpml.strategies.privacy_loss_distributions", strategies.privacy_loss_distributions),
        B("exactpml.strategies.database_spaces", strategies.database_spaces),
        B(
            "exactpml.strategies.database_mechanisms",
            strategies.database_mechanisms,
            (),
            {"space": space},
        ),
        B("exactpml.strategies.database_priors", strategies.database_priors, (space,)),
        B("exactpml.strategies.product_priors", strategies.product_priors, (space,)),
        B(
            "exactpml.strategies.counting_mechanisms",
            strategies.counting_mechanisms,
            (),
            {"max_size": 3},
        ),
        B("exactpml.strategies.tuple_mechanisms", strategies.tuple_mechanisms),
        B("exactpml.strategies.pair_kernels", strategies.pair_kernels),
        B("exactpml.strategies.product_output_mechanisms", strategies.product_output_mechanisms),
        B("exactpml.strategies.predicates", strategies.predicates, ([0, 1],)),
        B("exactpml.strategies.partial_knowledge_settings", strategies.partial_knowledge_settings),
        B("exactpml.strategies.setting_mechanisms", strategies.setting_mechanisms, (setting,)),
        B(
            "exactpml.strategies.count_release_mechanisms",
            strategies.count_release_mechanisms,
            (3,),
        ),
        B("exactpml.strategies.bounded_leakage_models", strategies.bounded_leakage_models),
        B("exactpml.strategies.correlated_priors", strategies.correlated_priors, (space,)),
        B(
            "exactpml.strategies.database_mechanisms_with_prior",
            strategies.database_mechanisms_with_prior,
            (),
            {"space": space},
        ),
        B("exactpml.strategies.settings_with_mechanism", strategies.settings_with_mechanism),
        B(
            "exactpml.strategies.strategy_origin",
            strategies.strategy_origin,
            (strategies.distributions(max_size=3),),
        ),
        B(
            "exactpml.strategies.StrategyOrigin",
            strategies.StrategyOrigin,
            (strategies.distributions, {"max_size": 3}),
        ),
        # --- proofs_check: where it takes user values -----------------------------------
        *_proofs_check_baselines(),
    ]
    del errors  # imported for the reader: its classes are the exactpml.* error entries
    return table


def _proofs_check_baselines() -> list[Baseline]:
    from hypothesis import strategies as st

    import proofs_check as pc
    from proofs_check.properties import PropertyError

    context = pc.CheckContext("fuzz.claim", examples=5, profile="quick")
    evidence = pc.witness_evidence("x = 1", True, values={"x": 1})
    unknown = sympy.Symbol("x")
    proof = pc.prove_inequality(unknown**2, unknown, {unknown: sympy.Interval(0, 2)})
    B = Baseline  # short: one row per call
    return [
        B(
            "proofs_check.RunOptions",
            pc.RunOptions,
            (),
            {
                "seed": 3,
                "examples": 5,
                "profile": "quick",
                "shards": 2,
                "workers": 1,
                "timeout": 60,
            },
        ),
        B(
            "proofs_check.CheckContext",
            pc.CheckContext,
            ("fuzz.claim",),
            {"seed": 1, "examples": 5, "profile": "quick"},
        ),
        B("proofs_check.Registry", pc.Registry),
        B(
            "proofs_check.check",
            pc.check,
            ("fuzz.claim",),
            {
                "mutants": {"m": "a mutant"},
                "source": "fuzz",
                "result": "Thm 1",
                "statement": "x",
                "kinds": "E",
                "registry": pc.Registry(),
            },
        ),
        B(
            "proofs_check.run_checks",
            pc.run_checks,
            (["pml.ex_3_1"],),
            {"options": pc.RunOptions(profile="quick", workers=1)},
        ),
        B("proofs_check.exact_text", pc.exact_text, (Fraction(9, 5),)),
        B("proofs_check.exact_latex", pc.exact_latex, (Fraction(9, 5),)),
        B("proofs_check.exact_repr", pc.exact_repr, (OBJECTS["channel"],)),
        B("proofs_check.exact_values", pc.exact_values, ({"x": Fraction(1, 3)},)),
        B("proofs_check.exactly_equal", pc.exactly_equal, (sympy.log(4), 2 * sympy.log(2))),
        B("proofs_check.exact_instances", pc.exact_instances, ({"x": (Fraction(1, 2), "1/2")},)),
        B(
            "proofs_check.certified_evidence",
            pc.certified_evidence,
            ("log(3) > 1", 10),
            {"values": {"log(3)": sympy.log(3)}},
        ),
        B(
            "proofs_check.limit_evidence",
            pc.limit_evidence,
            (Fraction(1, 2), "1/2"),
            {"attained": False, "family": "P_X"},
        ),
        B(
            "proofs_check.witness_evidence",
            pc.witness_evidence,
            ("x = 1", True),
            {"values": {"x": 1}},
        ),
        B(
            "proofs_check.sharpness_evidence",
            pc.sharpness_evidence,
            ("x <= 1",),
            {"attained": True, "on": "x = 1"},
        ),
        B("proofs_check.not_checkable", pc.not_checkable, ("no instance",)),
        B(
            "proofs_check.property_holds",
            pc.property_holds,
            (context, st.integers(0, 3), lambda n: n >= 0),
            {"describe": "n >= 0"},
            (PropertyError,),
        ),
        _record("proofs_check.Evidence", evidence),
        _record("proofs_check.ExactValue", evidence.values[0]),
        B(
            "proofs_check.prove_inequality",
            pc.prove_inequality,
            (unknown**2, unknown, {unknown: sympy.Interval(0, 1)}),
            {"timeout": 1},
        ),
        B(
            "proofs_check.proof_evidence",
            pc.proof_evidence,
            ("x**2 <= x", unknown**2, unknown, {unknown: sympy.Interval(0, 1)}),
            {"timeout": 1},
        ),
        B(
            "proofs_check.strengthening_evidence",
            pc.strengthening_evidence,
            ("strict", "x**2 < x", unknown**2, unknown, {unknown: sympy.Interval(0, 1)}),
            {"strict": True, "timeout": 1},
        ),
        _record("proofs_check.ProofResult", proof),
        _record("proofs_check.ProofRecord", proof.record()),
    ]


def _good_file(kind: str = "mechanism") -> str:
    """A valid mechanism (or prior) file, written once in the temporary directory: the
    fuzz tests replace its path (hostile files: ``test_hostile_cli_files.py``)."""
    folder = Path(tempfile.gettempdir()) / f"exactpml-fuzz-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    path = folder / f"{kind}.json"
    if kind == "prior":
        text = '{"a": "1/3", "b": "2/3"}'
    else:
        text = '{"rows": {"a": {"y": "3/4", "n": "1/4"}, "b": {"y": "1/4", "n": "3/4"}}}'
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return str(path)


def _seen_output(laws: Any) -> Any:
    """An output of positive probability under the first knowledge value's pair of laws."""
    pair = laws.pair(laws.knowledge_values[0])
    for output in pair.outputs:
        if any(value != 0 for value in pair.probabilities(output)):
            return output
    raise AssertionError("no output of positive probability")


def _pair_kernel() -> Any:
    """A kernel on pairs of entries (D^2 with D = {0, 1}) for the entry suprema."""
    from exactpml import Mechanism

    return Mechanism(
        {
            (0, 0): {0: "3/4", 1: "1/4"},
            (0, 1): {0: "1/2", 1: "1/2"},
            (1, 0): {0: "1/3", 1: "2/3"},
            (1, 1): {0: "1/4", 1: "3/4"},
        }
    )


BASELINES: dict[str, Baseline] = {baseline.name: baseline for baseline in _baselines()}

#: Public callables without a baseline, and why.
NOT_FUZZED: dict[str, str] = {
    "exactpml.cli.main": "the command line: tests/fuzz/test_hostile_cli_files.py",
    "exactpml.plots.plot_leakage_by_output": "draws with matplotlib (its values come from "
    "max_pointwise_maximal_leakage and CertifiedDecimal, both fuzzed)",
    "exactpml.plots.plot_series": "draws with matplotlib (points through display_float, fuzzed)",
    "exactpml.plots.publication_style": "no parameter",
    "exactpml.plots.save_figure": "writes files with matplotlib",
    "exactpml.database.Database": "a type alias",
    "exactpml.database.StructuredDatabaseMechanism": "a protocol; its implementations "
    "(QueryMechanism, PerRecordMechanism) are fuzzed",
    "exactpml.database.Reduction": "a record of functions built by explicit_reduction (fuzzed)",
    "exactpml.structured.Noise": "an abstract base (its subclasses are fuzzed)",
    "exactpml.structured.Query": "an abstract base (its subclasses are fuzzed)",
    "exactpml.partial_knowledge.Orders": "a type alias",
    "exactpml.partial_knowledge.Example7": "a record of example_7's result (fuzzed)",
    "exactpml.partial_knowledge.Example7Order": "a record of example_7's result (fuzzed)",
    "exactpml.partial_knowledge.ReducibilityCounterexample": "a record of theta_reducibility's "
    "result (fuzzed)",
    "exactpml.continuous.Disclosure": "a record of continuous.disclosure's result (fuzzed)",
    "exactpml.Construction": "a record of the proofs' constructions (shattering_construction, "
    "sup_pml: fuzzed); its builder is a function",
    "exactpml.SupremumBounds": "a record of sup_pml_over_outputs's result (fuzzed)",
    "proofs_check.Kind": "a type alias",
    "proofs_check.Profile": "a type alias",
    "proofs_check.Verdict": "an Enum",
    "proofs_check.Claim": "a record of the catalog",
    "proofs_check.ClaimResult": "a record of run_checks's result (fuzzed)",
    "proofs_check.ListedItem": "a record of the catalog",
    "proofs_check.RegisteredCheck": "a record of the registry (check is fuzzed)",
    "proofs_check.Report": "a record of run_checks's result (fuzzed)",
    "proofs_check.Source": "a record of the catalog",
}
