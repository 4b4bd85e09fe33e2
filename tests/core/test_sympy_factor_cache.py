"""sympy's factor cache refuses the composite factors its own limited factorint gives it;
exactpml guards it (exactpml/core/_sympy_factor_cache.py).  Found by Hypothesis: the optimal
simulator of a near-tie mechanism raised ValueError from deep inside sympy."""

import sympy

import exactpml  # noqa: F401  (installs the guard)
from exactpml import DatabaseMechanism
from exactpml.notions import optimal_simulator

N = 249999999998000000000003  # has two close factors, so factorint takes its Fermat step


def test_the_square_root_of_an_integer_with_close_factors_is_built():
    root = sympy.sqrt(sympy.Integer(N))
    assert root**2 == N  # exact, not factored wrongly


def test_the_near_tie_simulator_that_raised_is_computed():
    mechanism = DatabaseMechanism(
        {
            (0,): {0: "500000000001/1000000000000", 1: "499999999999/1000000000000"},
            (1,): {0: "500000000003/1000000000000", 1: "499999999997/1000000000000"},
        }
    )
    for index, others, _ in mechanism.space.neighbourhoods():
        best, _ = optimal_simulator(mechanism, index, others)
        assert not best.is_infinite
