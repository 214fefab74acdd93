"""privlib's input checks (the private ``privlib._validation``), through public functions that use
them: every message names the argument, the value received and what was expected."""
import numpy as np
import pandas as pd
import pytest

from privlib import data
from privlib.mechanisms import laplace, laplace_scale
from privlib.requirements import TCloseness
from privlib.simulate import simulate_ratings


def test_as_generator_accepts_int_and_generator():
    g = np.random.default_rng(3)
    first = laplace(0.0, eps=1.0, rng=g)
    assert first == laplace(0.0, eps=1.0, rng=3)              # the Generator is used as given ...
    assert laplace(0.0, eps=1.0, rng=g) != first               # ... and advances
    a, b = laplace(0.0, eps=1.0, rng=7), laplace(0.0, eps=1.0, rng=7)
    assert a == b
    assert laplace(0.0, eps=1.0, rng=np.int64(7)) == a


def test_none_is_fresh_entropy():
    assert laplace(0.0, eps=1.0, rng=None) != laplace(0.0, eps=1.0, rng=None) or \
        laplace(0.0, eps=1.0, rng=None) != laplace(0.0, eps=1.0, rng=None)


@pytest.mark.parametrize("bad", [1.5, "3", True])
def test_as_generator_rejects_other_types(bad):
    with pytest.raises(TypeError, match="rng"):
        laplace(0.0, eps=1.0, rng=bad)


def test_as_generator_rejects_negative_seed():
    with pytest.raises(ValueError, match="rng"):
        laplace(0.0, eps=1.0, rng=-1)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_check_epsilon_rejects(bad):
    with pytest.raises(ValueError, match="eps"):
        laplace_scale(eps=bad)


def test_check_epsilon_type_and_value():
    assert laplace_scale(eps=np.float32(0.5)) == 2.0
    with pytest.raises(TypeError, match="eps"):
        laplace_scale(eps="1")


def test_check_probability_closed_interval():
    assert TCloseness(0).t == 0 and TCloseness(1).t == 1
    with pytest.raises(ValueError, match=r"t: expected a probability in \[0, 1\], got 1.2"):
        TCloseness(1.2)


def _ipums(tmp_path, n=4, **over):
    cols = {"AGE": [30, 40, 50, 60][:n], "STATEFIP": [1, 2, 6, 9][:n], "EDUC": [6, 7, 10, 11][:n],
            "OCC": [10, 20, 30, 40][:n], "INCWAGE": [0, 25_000, 60_000, 90_000][:n]}
    cols.update(over)
    path = tmp_path / "usa.csv"
    pd.DataFrame(cols).to_csv(path, index=False)
    return path


def test_check_int_bounds_and_types(tmp_path):
    path = _ipums(tmp_path)
    assert len(data.load_ipums(path, n=np.int32(4), rng=0)) == 4
    assert len(data.load_ipums(path, n=2.0, rng=0)) == 2
    with pytest.raises(ValueError, match="n: expected an integer >= 1, got 0"):
        data.load_ipums(path, n=0, rng=0)
    with pytest.raises(TypeError, match="n: expected an integer"):
        data.load_ipums(path, n=2.5, rng=0)


def test_check_distribution():
    with pytest.raises(ValueError, match="summing to 1, got a sum of 0.9"):
        simulate_ratings(size_probs=[0.2, 0.7], rng=0)
    with pytest.raises(ValueError, match="non-negative"):
        simulate_ratings(size_probs=[1.5, -0.5], rng=0)
    with pytest.raises(ValueError, match="NaN"):
        simulate_ratings(size_probs=[np.nan, 1.0], rng=0)
    with pytest.raises(ValueError, match="non-empty"):
        simulate_ratings(size_probs=[], rng=0)


def test_check_columns_and_nan(tmp_path):
    with pytest.raises(ValueError, match=r"unknown column\(s\) \['STATEFIP'\]"):
        data.load_ipums(_no_state(tmp_path), rng=0)
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['EDUC'\]"):
        data.load_ipums(_ipums(tmp_path, EDUC=[6, None, 10, 11]), rng=0)


def _no_state(tmp_path):
    path = _ipums(tmp_path)
    pd.read_csv(path).drop(columns="STATEFIP").to_csv(path, index=False)
    return path


def test_check_in():
    with pytest.raises(ValueError, match=r"split: expected one of \['all', 'train', 'test'\], got 'c'"):
        data.load_adult(split="c")


def test_check_distribution_names_the_argument_for_non_numbers():
    with pytest.raises(TypeError, match="size_probs: expected probabilities"):
        simulate_ratings(size_probs=["a", "b"], rng=0)
