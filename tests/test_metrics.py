"""Tests of privlib.metrics: empirical privacy (beta) and empirical utility (alpha), Cormode et al. 2013."""
import numpy as np
import pandas as pd
import pytest

from privlib.metrics import (Workload, baseline_accuracy, estimate_answers, median_relative_error, privacy_breach,
                             range_workload, relative_errors, sweep, true_answers)
from privlib.partition import dp_kdtree, mondrian, qi_codes


def toy(n=500, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"x": rng.integers(0, 12, n), "y": rng.integers(3, 9, n), "z": rng.integers(0, 2, n),
                         "s": rng.choice(list("abc"), n)})


# ---------------------------------------------------------------- privacy breach
def test_privacy_breach_hand_worked():
    actual = ["a", "a", "a", "b", "c", "a", "b", "a", "c", "a"]      # rho = 6/10
    predicted = ["a", "a", "b", "b", "c", "a", "b", "a", "a", "a"]   # 8 correct
    br = privacy_breach(predicted, actual)
    assert br.rho == pytest.approx(0.6) and br.accuracy == pytest.approx(0.8)
    assert br.privacy == pytest.approx(0.2)
    assert br.beta == pytest.approx(0.8 / 0.6 - 1)
    assert privacy_breach(["a"] * 10, actual).beta == pytest.approx(0.0)   # the baseline itself
    assert privacy_breach(predicted, actual, rho=0.5).beta == pytest.approx(0.6)
    assert baseline_accuracy(actual) == pytest.approx(0.6)


def test_privacy_breach_bad_input():
    with pytest.raises(ValueError, match="predicted and actual: expected two 1-d arrays of one length"):
        privacy_breach(["a"], ["a", "b"])
    with pytest.raises(ValueError, match=r"rho: expected a baseline accuracy in \(0, 1\]"):
        privacy_breach(["a"], ["a"], rho=0)
    with pytest.raises(TypeError, match="actual: expected the true sensitive values"):
        privacy_breach(["a"])


# ---------------------------------------------------------------- workload
def test_range_workload_half_domain_nonzero_and_deterministic():
    df = toy()
    wl = range_workload(df, ["x", "y", "z"], 300, rng=3)
    assert wl.n_queries == 300
    widths = wl.upper - wl.lower + 1
    assert np.all(widths == [6, 3, 1])            # ceil(12/2), ceil(6/2), ceil(2/2)
    assert np.all(wl.lower >= [0, 3, 0]) and np.all(wl.upper <= [11, 8, 1])
    assert np.all(wl.answers > 0)
    X = qi_codes(df, ["x", "y", "z"])
    brute = np.array([((X >= lo) & (X <= hi)).all(axis=1).sum() for lo, hi in zip(wl.lower, wl.upper)])
    assert np.array_equal(brute, wl.answers)
    assert np.allclose(wl.selectivity, wl.answers / 500)
    wl2 = range_workload(df, ["x", "y", "z"], 300, rng=np.random.default_rng(3))
    assert np.array_equal(wl.lower, wl2.lower)


def test_true_answers_prefix_equals_scan():
    df = toy(800, 1)
    X = qi_codes(df, ["x", "y", "z"])
    rng = np.random.default_rng(0)
    L = rng.integers(0, 6, (100, 3)) + [0, 3, 0]
    U = L + rng.integers(0, 6, (100, 3))
    assert np.array_equal(true_answers(X, L, U, method="prefix"), true_answers(X, L, U, method="scan"))


def test_range_workload_bad_input():
    df = toy()
    with pytest.raises(ValueError, match=r"qi: unknown column\(s\) \['w'\]"):
        range_workload(df, ["x", "w"], 10, 0)
    with pytest.raises(TypeError, match="not orderable"):
        range_workload(df, ["x", "s"], 10, 0)
    with pytest.raises(ValueError, match="n: expected an integer >= 1, got 0"):
        range_workload(df, ["x"], 0, 0)


def test_workload_rejects_empty_and_zero_answers():
    qi = ("x",)
    with pytest.raises(ValueError, match="expected at least one query, got an empty workload"):
        Workload(qi, np.zeros((0, 1), int), np.zeros((0, 1), int), np.zeros(0), 10)
    with pytest.raises(ValueError, match="query 1 has a zero true answer"):
        Workload(qi, np.array([[0], [1]]), np.array([[1], [2]]), np.array([3, 0]), 10)


# ---------------------------------------------------------------- relative error
def test_uniformity_estimate_hand_worked():
    # one QI 0..9, k = 5 over 10 records one per code: leaves [0,4] and [5,9] with 5 each
    df = pd.DataFrame({"x": np.arange(10), "s": list("ababababab")})
    dec = mondrian(df, ["x"], "s", 5)
    wl = Workload(("x",), np.array([[0], [3], [2]]), np.array([[4], [6], [2]]), np.array([5, 4, 1]), 10)
    # [0,4] -> 5 exactly; [3,6] covers 2/5 of each leaf -> 2 + 2 = 4; [2,2] -> 1
    assert np.allclose(estimate_answers(dec, wl), [5, 4, 1])
    assert median_relative_error(dec, wl) == pytest.approx(0.0, abs=1e-6)
    skew = pd.DataFrame({"x": [0] * 9 + [9], "s": list("ababababab")})
    dec = mondrian(skew, ["x"], "s", 10, domain={"x": (0, 9)})          # root only: 10 records over 10 codes
    wl = Workload(("x",), np.array([[0], [0]]), np.array([[0], [4]]), np.array([9, 9]), 10)
    assert np.allclose(relative_errors(dec, wl), [abs(1 - 9) / 9, abs(5 - 9) / 9])


def test_grid_and_overlap_methods_agree():
    df = toy(600, 2)
    wl = range_workload(df, ["x", "y", "z"], 200, rng=1)
    for dec in (mondrian(df, ["x", "y", "z"], "s", 7), dp_kdtree(df, ["x", "y", "z"], "s", 0.5, 5, rng=2)):
        a = estimate_answers(dec, wl, "grid")
        b = estimate_answers(dec, wl, "overlap")
        assert np.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_exact_release_has_zero_error_on_aligned_queries():
    df = toy(600, 2)
    dec = mondrian(df, ["x", "y", "z"], "s", 1)
    X = qi_codes(df, ["x", "y", "z"])
    L, U = dec.lower, dec.upper                         # a query per leaf box
    ans = true_answers(X, L, U)
    keep = ans > 0
    wl = Workload(("x", "y", "z"), L[keep], U[keep], ans[keep], len(df))
    assert median_relative_error(dec, wl) == pytest.approx(0.0, abs=1e-6)
    # coarser partitions lose accuracy (the source's Figure 1(a))
    wl = range_workload(df, ["x", "y", "z"], 300, rng=4)
    errs = [median_relative_error(mondrian(df, ["x", "y", "z"], "s", k), wl) for k in (1, 20, 600)]
    assert errs[0] < errs[1] < errs[2]


def test_relative_error_bad_input():
    df = toy()
    dec = mondrian(df, ["x", "y"], "s", 5)
    wl = range_workload(df, ["x"], 10, rng=0)
    with pytest.raises(ValueError, match=r"workload: its quasi-identifiers \['x'\] differ"):
        median_relative_error(dec, wl)
    with pytest.raises(TypeError, match="workload: expected a privlib.metrics.Workload"):
        median_relative_error(dec, [(0, 1)])


# ---------------------------------------------------------------- sweeps
def test_sweep_independent_of_workers():
    from privlib.metrics import Setup
    df = toy(400, 6)
    setup = Setup("toy", df, ("x", "y", "z"), "s", {"x": (0, 11), "y": (3, 8), "z": (0, 1)})
    wl = range_workload(df, ["x", "y", "z"], 50, rng=0, domain=setup.domain)
    tasks = [("toy", "k", 4, 0, {}), ("toy", "eps", 0.5, 1, {"height": 4}), ("toy", "t", 0.3, 0, {}),
             ("toy", "l", 2, 0, {})]
    one = sweep({"toy": setup}, {"toy": wl}, tasks, workers=1)
    two = sweep({"toy": setup}, {"toy": wl}, tasks, workers=2)
    pd.testing.assert_frame_equal(one, two)
    assert list(one["model"]) == ["k", "eps", "t", "l"]
    with pytest.raises(ValueError, match=r"tasks: unknown setup key\(s\) \['other'\]"):
        sweep({"toy": setup}, {"toy": wl}, [("other", "k", 1, 0, {})])


# ---------------------------------------------------------------- setups of the source
def test_industry_pay_class_hand_worked():
    from privlib.metrics import industry_pay_class
    # industries: 7 (share of >50K 0.0, 2 records), 3 (0.5, 4 records), 5 (1.0, 2 records)
    ind = [7, 7, 3, 3, 3, 3, 5, 5]
    inc = ["- 50000", "- 50000", "50000+", "- 50000", "50000+", "- 50000", "50000+", "50000+"]
    # cumulative mass midpoints 0.125, 0.5, 0.875 -> with 2 classes: 0, 1, 1
    assert industry_pay_class(ind, inc, 2).tolist() == [0, 0, 1, 1, 1, 1, 1, 1]
    assert industry_pay_class(ind, inc, 4).tolist() == [0, 0, 2, 2, 2, 2, 3, 3]


def test_adult_and_census_setups():
    from privlib.metrics import adult_setup, census_setup
    a = adult_setup()
    assert a.n == 30162 and a.qi == ("workclass", "education", "sex", "hours_per_week", "income")
    edu = a.orders["education"]
    assert edu[0] == "Preschool" and edu[-1] == "Doctorate" and len(edu) == 16
    assert baseline_accuracy(a.df[a.sa]) == pytest.approx(4038 / 30162)
    c = census_setup()
    assert c.n == 49627 and c.df["salary_class"].nunique() == 10
    assert all(np.issubdtype(c.df[q].dtype, np.integer) for q in c.qi)
    for q in c.qi:
        lo, hi = c.domain[q]
        assert c.df[q].between(lo, hi).all()
