"""Tests of privlib.metrics: empirical privacy (beta) and empirical utility (alpha), Cormode et al. 2013."""
import numpy as np
import pandas as pd
import pytest

from privlib.experiments.empirical_privacy import sweep
from privlib.metrics import (Workload, estimate_answers, majority_accuracy, median_relative_error, privacy_breach,
                             range_workload, relative_errors, true_answers)
from privlib.partition import dp_kdtree, mondrian, qi_codes


#: public domains and SA values of toy(): how the data is drawn
TOY = dict(domain={"x": (0, 11), "y": (3, 8), "z": (0, 1)}, sa_values=("a", "b", "c"))


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
    assert majority_accuracy(actual) == pytest.approx(0.6)


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
    wl = range_workload(df, ["x", "y", "z"], n=300, rng=3)
    assert wl.n_queries == 300
    widths = wl.upper - wl.lower + 1
    assert np.all(widths == [6, 3, 1])            # ceil(12/2), ceil(6/2), ceil(2/2)
    assert np.all(wl.lower >= [0, 3, 0]) and np.all(wl.upper <= [11, 8, 1])
    assert np.all(wl.answers > 0)
    X = qi_codes(df, ["x", "y", "z"])
    brute = np.array([((X >= lo) & (X <= hi)).all(axis=1).sum() for lo, hi in zip(wl.lower, wl.upper)])
    assert np.array_equal(brute, wl.answers)
    assert np.allclose(wl.selectivity, wl.answers / 500)
    wl2 = range_workload(df, ["x", "y", "z"], n=300, rng=np.random.default_rng(3))
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
        range_workload(df, ["x", "w"], n=10, rng=0)
    with pytest.raises(TypeError, match="not orderable"):
        range_workload(df, ["x", "s"], n=10, rng=0)
    with pytest.raises(ValueError, match="n: expected an integer >= 1, got 0"):
        range_workload(df, ["x"], n=0, rng=0)


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
    dec = mondrian(df, ["x"], "s", k=5)
    wl = Workload(("x",), np.array([[0], [3], [2]]), np.array([[4], [6], [2]]), np.array([5, 4, 1]), 10)
    # [0,4] -> 5 exactly; [3,6] covers 2/5 of each leaf -> 2 + 2 = 4; [2,2] -> 1
    assert np.allclose(estimate_answers(dec, wl), [5, 4, 1])
    assert median_relative_error(dec, wl) == pytest.approx(0.0, abs=1e-6)
    skew = pd.DataFrame({"x": [0] * 9 + [9], "s": list("ababababab")})
    dec = mondrian(skew, ["x"], "s", k=10, domain={"x": (0, 9)})          # root only: 10 records over 10 codes
    wl = Workload(("x",), np.array([[0], [0]]), np.array([[0], [4]]), np.array([9, 9]), 10)
    assert np.allclose(relative_errors(dec, wl), [abs(1 - 9) / 9, abs(5 - 9) / 9])


def test_grid_and_overlap_methods_agree():
    df = toy(600, 2)
    wl = range_workload(df, ["x", "y", "z"], n=200, rng=1)
    for dec in (mondrian(df, ["x", "y", "z"], "s", k=7), dp_kdtree(df, ["x", "y", "z"], "s", eps=0.5, height=5, rng=2, **TOY)):
        a = estimate_answers(dec, wl, method="grid")
        b = estimate_answers(dec, wl, method="overlap")
        assert np.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_exact_release_has_zero_error_on_aligned_queries():
    df = toy(600, 2)
    dec = mondrian(df, ["x", "y", "z"], "s", k=1)
    X = qi_codes(df, ["x", "y", "z"])
    L, U = dec.lower, dec.upper                         # a query per leaf box
    ans = true_answers(X, L, U)
    keep = ans > 0
    wl = Workload(("x", "y", "z"), L[keep], U[keep], ans[keep], len(df))
    assert median_relative_error(dec, wl) == pytest.approx(0.0, abs=1e-6)
    # coarser partitions lose accuracy (the source's Figure 1(a))
    wl = range_workload(df, ["x", "y", "z"], n=300, rng=4)
    errs = [median_relative_error(mondrian(df, ["x", "y", "z"], "s", k=k), wl) for k in (1, 20, 600)]
    assert errs[0] < errs[1] < errs[2]


def test_relative_error_bad_input():
    df = toy()
    dec = mondrian(df, ["x", "y"], "s", k=5)
    wl = range_workload(df, ["x"], n=10, rng=0)
    with pytest.raises(ValueError, match=r"workload: its quasi-identifiers \['x'\] differ"):
        median_relative_error(dec, wl)
    with pytest.raises(TypeError, match="workload: expected a privlib.metrics.Workload"):
        median_relative_error(dec, [(0, 1)])


# ---------------------------------------------------------------- sweeps
def test_sweep_independent_of_n_jobs():
    from privlib.experiments.empirical_privacy import Setup
    df = toy(400, 6)
    setup = Setup("toy", df, ("x", "y", "z"), "s", TOY["domain"], sa_values=TOY["sa_values"])
    wl = range_workload(df, ["x", "y", "z"], n=50, rng=0, domain=setup.domain)
    tasks = [("toy", "k", 4, 0, {}), ("toy", "eps", 0.5, 1, {"height": 4}), ("toy", "t", 0.3, 0, {}),
             ("toy", "l", 2, 0, {})]
    one = sweep({"toy": setup}, {"toy": wl}, tasks, n_jobs=1)
    two = sweep({"toy": setup}, {"toy": wl}, tasks, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert list(one["model"]) == ["k", "eps", "t", "l"]
    with pytest.raises(ValueError, match=r"tasks: unknown setup key\(s\) \['other'\]"):
        sweep({"toy": setup}, {"toy": wl}, [("other", "k", 1, 0, {})])


# ---------------------------------------------------------------- setups of the source
def test_industry_pay_class_hand_worked():
    from privlib.experiments.empirical_privacy import industry_pay_class
    # industries: 7 (share of >50K 0.0, 2 records), 3 (0.5, 4 records), 5 (1.0, 2 records)
    ind = [7, 7, 3, 3, 3, 3, 5, 5]
    inc = ["- 50000", "- 50000", "50000+", "- 50000", "50000+", "- 50000", "50000+", "50000+"]
    # cumulative mass midpoints 0.125, 0.5, 0.875 -> with 2 classes: 0, 1, 1
    assert industry_pay_class(ind, inc, n_classes=2).tolist() == [0, 0, 1, 1, 1, 1, 1, 1]
    assert industry_pay_class(ind, inc, n_classes=4).tolist() == [0, 0, 2, 2, 2, 2, 3, 3]


def test_adult_and_census_setups():
    from privlib.experiments.empirical_privacy import adult_setup, census_setup
    a = adult_setup()
    assert a.n == 30162 and a.qi == ("workclass", "education", "sex", "hours_per_week", "income")
    edu = a.orders["education"]
    assert edu[0] == "Preschool" and edu[-1] == "Doctorate" and len(edu) == 16
    assert majority_accuracy(a.df[a.sa]) == pytest.approx(4038 / 30162)
    c = census_setup()
    assert c.n == 49627 and c.df["salary_class"].nunique() == 10
    assert all(np.issubdtype(c.df[q].dtype, np.integer) for q in c.qi)
    for q in c.qi:
        lo, hi = c.domain[q]
        assert c.df[q].between(lo, hi).all()


# ---------------------------------------------------------------- noisy-count post-processing (round 2)
def test_leaf_counts_clip_and_match_total_hand_worked():
    import dataclasses
    from privlib.metrics import leaf_counts
    df = pd.DataFrame({"x": np.arange(10), "s": list("ababababab")})
    dec = mondrian(df, ["x"], "s", k=5)                                   # leaves [0,4], [5,9]
    noisy = dataclasses.replace(dec, histograms=np.array([[4.0, -2.0], [-1.0, 3.0]]))
    assert np.allclose(leaf_counts(noisy), [2.0, 2.0])                  # as released (sum 4)
    assert np.allclose(leaf_counts(noisy, clip_negative=True), [4.0, 3.0])
    assert np.allclose(leaf_counts(noisy, clip_negative=True, match_total=True), [4 * 4 / 7, 3 * 4 / 7])
    # a negative noisy total: every estimate becomes 0
    neg = dataclasses.replace(dec, histograms=np.array([[1.0, -5.0], [-1.0, 0.0]]))
    assert np.allclose(leaf_counts(neg, clip_negative=True, match_total=True), [0.0, 0.0])
    # all cells clipped away: the noisy total is spread evenly over the leaves
    zero = dataclasses.replace(dec, histograms=np.array([[-1.0, -1.0], [-1.0, 5.0]]))
    assert np.allclose(leaf_counts(zero, clip_negative=True, match_total=True), [0.0, 2.0])
    # the answers use those counts: query [3, 6] covers 2/5 of each leaf
    wl = Workload(("x",), np.array([[3]]), np.array([[6]]), np.array([4]), 10)
    assert np.allclose(estimate_answers(noisy, wl), [0.4 * 2 + 0.4 * 2])
    assert np.allclose(estimate_answers(noisy, wl, clip_negative=True), [0.4 * 4 + 0.4 * 3])
    assert np.allclose(relative_errors(noisy, wl, clip_negative=True), [abs(2.8 - 4) / 4])
    # exact (syntactic) histograms: the options change nothing
    wl = range_workload(df, ["x"], n=20, rng=0)
    for kw in ({}, {"clip_negative": True}, {"clip_negative": True, "match_total": True}):
        assert median_relative_error(dec, wl, **kw) == pytest.approx(median_relative_error(dec, wl))


def test_clipping_biases_small_eps_answers_upwards():
    from privlib.metrics import leaf_counts
    df = toy(600, 3)
    dec = dp_kdtree(df, ["x", "y", "z"], "s", eps=0.05, height=5, rng=1, **TOY)
    raw, clipped = leaf_counts(dec), leaf_counts(dec, clip_negative=True)
    assert np.all(clipped >= raw - 1e-12) and clipped.sum() > raw.sum()
    rescaled = leaf_counts(dec, clip_negative=True, match_total=True)
    assert rescaled.sum() == pytest.approx(max(dec.histograms.sum(), 0.0)) and np.all(rescaled >= 0)
    wl = range_workload(df, ["x", "y", "z"], n=200, rng=2)
    a = estimate_answers(dec, wl, clip_negative=True, method="grid")
    b = estimate_answers(dec, wl, clip_negative=True, method="overlap")
    assert np.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_leaf_counts_bad_input():
    from privlib.metrics import leaf_counts
    dec = mondrian(toy(), ["x", "y"], "s", k=5)
    with pytest.raises(ValueError, match="match_total: rescaling to the noisy total needs clip_negative=True"):
        leaf_counts(dec, match_total=True)
    with pytest.raises(TypeError, match="clip_negative, match_total: expected bools"):
        leaf_counts(dec, clip_negative="yes")
    with pytest.raises(TypeError, match="decomposition: expected a privlib Decomposition"):
        leaf_counts([[1, 2]])


# ---------------------------------------------------------------- readings of the workload (round 2)
def test_query_readings_half_matches_box_answers_and_widths():
    from privlib.experiments.empirical_privacy import QUERY_READINGS, query_readings
    df = toy(800, 5)
    qi = ["x", "y", "z"]
    X = qi_codes(df, qi)
    for reading in QUERY_READINGS:
        q = query_readings(df, qi, n=150, rng=3, reading=reading)
        assert q.answers.shape == (150,) and np.all(q.answers > 0)
        # each condition is an interval of codes; the scan of that box gives the same answer
        L = np.column_stack([M.argmax(axis=1) for M in q.members]) + X.min(axis=0)
        U = np.column_stack([M.shape[1] - 1 - M[:, ::-1].argmax(axis=1) for M in q.members]) + X.min(axis=0)
        for M in q.members:
            runs = np.diff(M.astype(int), axis=1)
            assert np.all((runs == 1).sum(axis=1) <= 1) and np.all((runs == -1).sum(axis=1) <= 1)
        assert np.array_equal(q.answers, true_answers(X, L, U, method="scan"))
        wl = q.to_workload()
        assert np.array_equal(wl.lower, L) and np.array_equal(wl.upper, U) and wl.n_records == 800
        widths = [M.sum(axis=1) for M in q.members]          # x: 12 codes, y: 6, z: 2
        if reading == "half":
            assert all(np.all(w == c) for w, c in zip(widths, (6, 3, 1)))
        if reading == "half_inclusive":
            assert all(np.all(w == c) for w, c in zip(widths, (7, 4, 2)))
        if reading == "centred":
            assert all(np.all(w <= c) for w, c in zip(widths, (6, 3, 1)))
    # on skewed data the anchored reading queries the dense region more often
    skew = pd.DataFrame({"x": np.minimum(np.random.default_rng(0).geometric(0.3, 800) - 1, 19),
                         "y": np.arange(800) % 20})
    skew.loc[0, "x"] = 19
    dense = np.median(query_readings(skew, ["x", "y"], n=300, rng=1, reading="around_record").selectivity)
    plain = np.median(query_readings(skew, ["x", "y"], n=300, rng=1, reading="half").selectivity)
    assert dense > 2 * plain


def test_query_readings_value_subsets_and_determinism():
    from privlib.experiments.empirical_privacy import query_readings
    df = toy(800, 7)
    qi = ["x", "y", "z"]
    q = query_readings(df, qi, n=200, rng=4, subsets=["x"])
    assert np.all(q.members[0].sum(axis=1) == 6)                     # half of the 12 values present
    # an independent count: a direct scan of the records
    X = qi_codes(df, qi) - qi_codes(df, qi).min(axis=0)
    inside = np.ones((200, len(df)), dtype=bool)
    for j, M in enumerate(q.members):
        inside &= M[:, X[:, j]]
    assert np.array_equal(q.answers, inside.sum(axis=1))
    again = query_readings(df, qi, n=200, rng=4, subsets=["x"])
    assert np.array_equal(q.answers, again.answers)
    assert np.allclose(q.selectivity, q.answers / 800)
    with pytest.raises(ValueError, match="to_workload: the reading 'half' with value subsets has no box"):
        q.to_workload()


def test_query_readings_bad_input():
    from privlib.experiments.empirical_privacy import query_readings
    df = toy()
    with pytest.raises(ValueError, match="reading"):
        query_readings(df, ["x"], n=10, rng=0, reading="quarter")
    with pytest.raises(ValueError, match=r"subsets: expected quasi-identifiers among \['x'\]"):
        query_readings(df, ["x"], n=10, rng=0, subsets=["y"])
    with pytest.raises(ValueError, match="n"):
        query_readings(df, ["x"], n=0, rng=0)
    with pytest.raises(TypeError, match="df: expected a pandas DataFrame"):
        query_readings([[1]], ["x"], n=10, rng=0)


def test_evaluate_alpha_variants_match_median_relative_error():
    from privlib.experiments.empirical_privacy import Setup, evaluate
    df = toy(500, 8)
    setup = Setup("toy", df, ("x", "y", "z"), "s", TOY["domain"], {}, "equal", TOY["sa_values"])
    wl = range_workload(df, ["x", "y", "z"], n=150, rng=1, domain=setup.domain)
    row = evaluate(setup, wl, "eps", 0.1, rng=3, height=4, alpha_variants=True)
    dec = dp_kdtree(df, ["x", "y", "z"], "s", eps=0.1, height=4, rng=3, **TOY)
    assert row["alpha"] == pytest.approx(median_relative_error(dec, wl))
    assert row["alpha_clipped"] == pytest.approx(median_relative_error(dec, wl, clip_negative=True), rel=1e-5)
    assert row["alpha_clipped_total"] == pytest.approx(
        median_relative_error(dec, wl, clip_negative=True, match_total=True), rel=1e-5)
    assert "alpha_variants" not in row and "alpha_clipped" not in evaluate(setup, wl, "eps", 0.1, rng=3, height=4)


def test_evaluate_second_classifier_and_t_columns():
    """``second_classifier`` adds the leaf-majority attack; model "t" reports the leaves above t
    and defaults to the source's splitting rule."""
    from privlib.attacks import leaf_majority
    from privlib.closeness import emd_equal
    from privlib.experiments.empirical_privacy import Setup, build, evaluate
    from privlib.metrics import privacy_breach
    df = toy(500, 8)
    setup = Setup("toy", df, ("x", "y", "z"), "s", TOY["domain"], {}, "equal", TOY["sa_values"])
    wl = range_workload(df, ["x", "y", "z"], n=150, rng=1, domain=setup.domain)
    row = evaluate(setup, wl, "k", 5, rng=0, second_classifier=True)
    dec = mondrian(df, ["x", "y", "z"], "s", k=5, **TOY)
    assert row["accuracy_majority"] == pytest.approx(privacy_breach(leaf_majority(dec, df)).accuracy)
    assert "second_classifier" not in row and "accuracy_majority" not in evaluate(setup, wl, "k", 5, rng=0)
    for rule in ("source", "strict"):
        kw = {} if rule == "source" else {"t_rule": rule}
        row = evaluate(setup, wl, "t", 0.1, rng=0, **kw)
        dec = build(setup, "t", 0.1, rng=0, **kw)
        assert dec.params["t_rule"] == rule
        root = dec.histograms.sum(axis=0) / dec.histograms.sum()
        d = emd_equal(dec.histograms / dec.counts[:, None], root)
        assert row["leaf_emd_max"] == pytest.approx(d.max())
        assert row["share_above_t"] == pytest.approx(dec.counts[d > 0.1 + 1e-12].sum() / len(df))
        if rule == "strict":
            assert row["share_above_t"] == 0.0
