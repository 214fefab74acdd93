import numpy as np
import pandas as pd
import pytest

from privlib import _validation as v


def test_as_generator_accepts_int_and_generator():
    g = np.random.default_rng(3)
    assert v.as_generator(g) is g
    a, b = v.as_generator(7), v.as_generator(7)
    assert a.random() == b.random()
    assert v.as_generator(np.int64(7)).random() == np.random.default_rng(7).random()


@pytest.mark.parametrize("bad", [None, 1.5, "3", True])
def test_as_generator_rejects_other_types(bad):
    with pytest.raises(TypeError, match="rng"):
        v.as_generator(bad)


def test_as_generator_rejects_negative_seed():
    with pytest.raises(ValueError, match="rng"):
        v.as_generator(-1)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_check_epsilon_rejects(bad):
    with pytest.raises(ValueError, match="eps"):
        v.check_epsilon(bad)


def test_check_epsilon_type_and_value():
    assert v.check_epsilon(np.float32(0.5)) == 0.5
    with pytest.raises(TypeError, match="eps"):
        v.check_epsilon("1")


@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5, float("nan")])
def test_check_delta_open_interval(bad):
    with pytest.raises(ValueError, match=r"delta: expected a probability in \(0, 1\)"):
        v.check_delta(bad)


def test_check_probability_closed_interval():
    assert v.check_probability(0, "p") == 0.0 and v.check_probability(1, "p") == 1.0
    with pytest.raises(ValueError, match=r"p: expected a probability in \[0, 1\], got 1.2"):
        v.check_probability(1.2, "p")


def test_check_int_bounds_and_types():
    assert v.check_int(np.int32(4), "k", minimum=1) == 4
    assert v.check_int(4.0, "k") == 4
    with pytest.raises(ValueError, match="k: expected an integer >= 1, got 0"):
        v.check_int(0, "k", minimum=1)
    with pytest.raises(ValueError, match="k: expected an integer <= 10, got 11"):
        v.check_int(11, "k", maximum=10)
    with pytest.raises(TypeError, match="k: expected an integer"):
        v.check_int(2.5, "k")


def test_check_distribution():
    np.testing.assert_allclose(v.check_distribution([0.25, 0.75], "p"), [0.25, 0.75])
    with pytest.raises(ValueError, match="summing to 1, got a sum of 0.9"):
        v.check_distribution([0.2, 0.7], "p")
    with pytest.raises(ValueError, match="non-negative"):
        v.check_distribution([1.5, -0.5], "p")
    with pytest.raises(ValueError, match="NaN"):
        v.check_distribution([np.nan, 1.0], "p")
    with pytest.raises(ValueError, match="non-empty"):
        v.check_distribution([], "p")
    stack = v.check_distribution([[0.5, 0.5], [1.0, 0.0]], "P")
    assert stack.shape == (2, 2)


def test_check_columns_and_nan():
    df = pd.DataFrame({"a": [1, 2], "b": [np.nan, 1.0]})
    assert v.check_columns(df, "a") == ["a"]
    with pytest.raises(ValueError, match=r"unknown column\(s\) \['zip'\]"):
        v.check_columns(df, ["a", "zip"], "qi")
    v.check_no_nan(df, "df", ["a"])
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['b'\]"):
        v.check_no_nan(df, "df")
    with pytest.raises(ValueError, match="contains NaN"):
        v.check_no_nan(np.array([1.0, np.nan]), "x")


def test_check_in_and_nonempty():
    assert v.check_in("a", "kind", ["a", "b"]) == "a"
    with pytest.raises(ValueError, match=r"kind: expected one of \['a', 'b'\], got 'c'"):
        v.check_in("c", "kind", ["a", "b"])
    with pytest.raises(ValueError, match="at least one row"):
        v.check_nonempty(pd.DataFrame({"a": []}))


def test_check_distribution_names_the_argument_for_non_numbers():
    import pytest
    from privlib._validation import check_distribution
    with pytest.raises(TypeError, match="weights: expected probabilities"):
        check_distribution(["a", "b"], "weights")
