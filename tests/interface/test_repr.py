"""Every object's ``repr`` is Python that rebuilds an equal object (issue 11, printing).

The reprs are read back here with ``eval`` on a namespace of exactpml's public names (what
``from exactpml import *`` gives, plus ``sympy`` for declared symbols): only text that the
library printed is evaluated, and only in this test.  The library itself never evaluates
text: numbers inside the reprs are strings read by exactpml's grammar.
"""

import re
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty as hypothesis_pretty

import exactpml
from exactpml import (
    BoundedLeakageModel,
    CountingMechanism,
    DatabaseMechanism,
    DatabaseSpace,
    Distribution,
    InexactInput,
    InvalidArgument,
    LogValue,
    Mechanism,
    PartialKnowledge,
    ProductPrior,
    QueryMechanism,
    structured,
)
from exactpml import strategies as xst

NAMESPACE = {name: getattr(exactpml, name) for name in exactpml.__all__} | {"sympy": sympy}
SPACE = DatabaseSpace([0, 1], 2)


def rebuild(value):
    """The object that the text ``repr(value)`` builds (text printed by exactpml only)."""
    text = repr(value)
    return eval(text, dict(NAMESPACE))  # trusted: the library's own repr, in this test only


def _same(original, rebuilt) -> None:
    """Equal objects, with the same alphabets in the same order, and the same repr."""
    assert type(rebuilt) is type(original)
    assert repr(rebuilt) == repr(original)
    if isinstance(original, Distribution):
        assert rebuilt == original and rebuilt.outcomes == original.outcomes
    elif isinstance(original, Mechanism):
        assert rebuilt == original
        assert (rebuilt.inputs, rebuilt.outputs) == (original.inputs, original.outputs)
    elif isinstance(original, DatabaseMechanism):
        assert rebuilt == original and rebuilt.space == original.space
        _same(original.mechanism, rebuilt.mechanism)
    elif isinstance(original, ProductPrior):
        assert rebuilt == original and rebuilt.joint() == original.joint()
    elif isinstance(original, PartialKnowledge):
        assert rebuilt.records == original.records
        assert (rebuilt.target, rebuilt.value, rebuilt.alternative, rebuilt.known) == (
            original.target,
            original.value,
            original.alternative,
            original.known,
        )
        for given_value in original.records[original.target].support:
            for database, _ in original.databases(given_value):
                assert rebuilt.knowledge_of(database) == original.knowledge_of(database)
    elif isinstance(original, BoundedLeakageModel):
        assert rebuilt.randomness == original.randomness
        assert rebuilt.databases == original.databases
        assert dict(rebuilt.outputs) == dict(original.outputs)
        assert dict(rebuilt.leakages) == dict(original.leakages)
        assert set(rebuilt.neighbours) == set(original.neighbours)
    elif isinstance(original, CountingMechanism):
        for count in range(4):
            assert rebuilt.row(count) == original.row(count)
    elif isinstance(original, QueryMechanism):
        assert rebuilt.explicit() == original.explicit()
    else:  # pragma: no cover - every strategy's type is listed above
        raise AssertionError(f"no comparison for {type(original).__name__}")


STRATEGIES = {
    "distributions": xst.distributions(),
    "mechanisms": xst.mechanisms(),
    "pair_kernels": xst.pair_kernels(),
    "attributes": xst.attributes(["a", "b", (0, 1)]),
    "tuple_mechanisms": xst.tuple_mechanisms(max_inputs=9),
    "database_mechanisms": xst.database_mechanisms(),
    "database_priors": xst.database_priors(SPACE),
    "product_priors": xst.product_priors(SPACE),
    "counting_mechanisms": xst.counting_mechanisms(max_size=3),
    "partial_knowledge_settings": xst.partial_knowledge_settings(max_records=3),
    "count_release_mechanisms": xst.count_release_mechanisms(3),
    "bounded_leakage_models": xst.bounded_leakage_models(),
}


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@settings(max_examples=40)
@given(data=st.data())
def test_every_strategy_object_is_rebuilt_from_its_repr(name, data):
    value = data.draw(STRATEGIES[name])
    _same(value, rebuild(value))


@given(xst.mechanisms_with_prior())
def test_pairs_and_setting_mechanisms_are_rebuilt(pair):
    for value in pair:
        _same(value, rebuild(value))


@given(xst.partial_knowledge_settings(max_records=3).flatmap(xst.setting_mechanisms))
def test_setting_mechanisms_are_rebuilt(mechanism):
    _same(mechanism, rebuild(mechanism))


def test_structured_and_symbolic_objects_are_rebuilt():
    t = sympy.Symbol("t", positive=True)
    symbolic = Mechanism({"a": {0: 1 - t / 2, 1: t / 2}, "b": {0: "sqrt(2)/2", 1: "1 - sqrt(2)/2"}})
    assert "symbols={'t': sympy.Symbol('t', positive=True)}" in repr(symbolic)
    _same(symbolic, rebuild(symbolic))
    per_record = structured.PerRecordMechanism(SPACE, exactpml.randomized_response([0, 1], 3))
    assert rebuild(per_record).explicit() == per_record.explicit()
    linear = QueryMechanism(
        SPACE,
        structured.LinearQuery([1, "1/2"], values=lambda d: 2 * d),
        noise=structured.LaplaceNoise("1/3"),
        threshold="1/2",
    )
    again = rebuild(linear)
    assert repr(again) == repr(linear)
    assert again.query.statistics(SPACE) == linear.query.statistics(SPACE)
    assert again.noise == linear.noise and again.window == linear.window
    mean = QueryMechanism(SPACE, structured.MeanQuery("harmonic", values={0: 1, 1: 3}))
    assert rebuild(mean).explicit() == mean.explicit()


def test_a_database_mechanism_prints_its_rows():
    mechanism = DatabaseMechanism(
        {(0,): {"no": "3/4", "yes": "1/4"}, (1,): {"no": "1/4", "yes": "3/4"}}
    )
    assert repr(mechanism) == (
        "DatabaseMechanism(Mechanism({(0,): {'no': '3/4', 'yes': '1/4'}, (1,): {'no': '1/4', "
        "'yes': '3/4'}}, outputs=['no', 'yes']), alphabet=[0, 1], size=1)"
    )


# --- LogValue reads as the logarithm -------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (LogValue(3), "LogValue.log(3)"),
        (LogValue(Fraction(9, 5)), "LogValue.log('9/5')"),
        (LogValue(1), "LogValue.log(1)"),
        (LogValue(0), "LogValue.log(0)"),
        (LogValue(sympy.sqrt(2)), "LogValue.log('sqrt(2)')"),
        (LogValue(sympy.E**2), "LogValue.log('exp(2)')"),
        (LogValue.infinity(), "LogValue.infinity()"),
        (LogValue(Fraction(7, 2) ** 40), f"LogValue.log('{Fraction(7, 2) ** 40}')"),
    ],
)
def test_log_value_repr_is_the_logarithm_and_rebuilds_it(value, text):
    assert repr(value) == text
    rebuilt = rebuild(value)
    assert rebuilt == value and repr(rebuilt) == text


def test_log_value_comparisons_read_right():
    assert repr(LogValue.log(3)) == "LogValue.log(3)"
    assert not LogValue.log(3) <= LogValue.log(2)
    assert LogValue.log("9/5") == LogValue(Fraction(9, 5))
    assert LogValue.log("sqrt(2)").ratio == sympy.sqrt(2)
    assert LogValue.log("sqrt(2)") < LogValue.log("3/2")  # √2 < 3/2, certified


def test_log_value_reads_strings_with_the_grammar_only():
    t = sympy.Symbol("t", positive=True)
    value = LogValue.log("t/2", symbols={"t": t})
    assert value.ratio == t / 2
    assert repr(value) == "LogValue.log('t/2', symbols={'t': sympy.Symbol('t', positive=True)})"
    assert rebuild(value).ratio == t / 2
    with pytest.raises(InvalidArgument):
        LogValue.log("__import__('os').system('true')")
    with pytest.raises(InvalidArgument):
        LogValue.log("-1")
    with pytest.raises(InexactInput):
        LogValue.log(0.5)


# --- IPython and Hypothesis print the same text ------------------------------------------


@given(
    st.one_of(
        xst.mechanisms(),
        xst.distributions(),
        xst.database_mechanisms(),
        xst.product_priors(SPACE),
        xst.bounded_leakage_models(),
        xst.partial_knowledge_settings(max_records=2),
        xst.counting_mechanisms(max_size=2),
        st.builds(LogValue, st.fractions(min_value=0)),
    )
)
def test_pretty_printers_show_the_repr(value):
    assert hypothesis_pretty(value) == repr(value)
    ipython = pytest.importorskip("IPython.lib.pretty")
    assert ipython.pretty(value) == repr(value)


def test_a_hypothesis_failure_report_can_be_pasted_back():
    @settings(max_examples=50, derandomize=True, database=None)
    @given(mechanism=xst.database_mechanisms())
    def claim(mechanism):
        assert mechanism.space.size < 2 or len(mechanism.outputs) < 2

    with pytest.raises(AssertionError) as failure:
        claim()
    report = "\n".join(getattr(failure.value, "__notes__", []))
    shown = re.search(r"mechanism=(DatabaseMechanism\(.*\)),\n\)", report, flags=re.S)
    assert shown is not None, report
    assert "_integer" not in report and "rows=" not in report  # no dataclass internals
    pasted = eval(shown.group(1), dict(NAMESPACE))  # trusted: the report's own repr text
    assert isinstance(pasted, DatabaseMechanism)
    assert pasted.space.size >= 2 and len(pasted.outputs) >= 2  # it is the counterexample
