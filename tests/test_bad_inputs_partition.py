"""Bad and extreme inputs for the empirical-privacy modules: mechanisms, partition, metrics, attacks.

Each case either checks the correct result against a hand computation / an independent method,
or expects a ``ValueError`` / ``TypeError`` whose message names the argument.  The probe
findings of the reliability review each have a regression test below the parametrized cases.
"""
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from privlib import PrivacyLeakWarning
from privlib import mechanisms as m
from privlib import metrics
from privlib.experiments import empirical_privacy as ep
from privlib.accounting import Ledger
from privlib.attacks import kernel_conditionals, leaf_majority, naive_bayes
from privlib.partition import (dp_kdtree, encode_ordinal, median_cut_probabilities, mondrian, private_medians,
                               qi_codes, root_box)

_g = np.random.default_rng(0)
DF = pd.DataFrame({"x": _g.integers(0, 10, 60), "y": _g.integers(0, 4, 60), "s": _g.choice(["a", "b"], 60)})
DOM = {"x": (0, 9), "y": (0, 3)}
SAV = ("a", "b")
PUB = dict(domain=DOM, sa_values=SAV)
SETUP = ep.Setup("toy", DF, ("x", "y"), "s", DOM, sa_values=SAV)
WL = metrics.range_workload(DF, ["x", "y"], n=20, rng=0, domain=DOM)
DEC = mondrian(DF, ["x", "y"], "s", k=5, domain=DOM)


def _dup_columns():
    d = DF.copy()
    d.columns = ["x", "x", "s"]
    return d


BAD = [
    # ---------------------------------------------------------------- mechanisms
    ("laplace eps nan", lambda: m.laplace(0.0, eps=np.nan, rng=0), ValueError, "eps"),
    ("laplace eps inf", lambda: m.laplace(0.0, eps=np.inf, rng=0), ValueError, "eps"),
    ("laplace eps string", lambda: m.laplace(0.0, eps="1", rng=0), TypeError, "eps"),
    ("laplace eps subnormal", lambda: m.laplace(0.0, eps=1e-310, rng=0), ValueError, "eps"),
    ("laplace sensitivity 0", lambda: m.laplace(0.0, eps=1.0, sensitivity=0.0, rng=0), ValueError, "sensitivity"),
    ("laplace value inf", lambda: m.laplace([1.0, np.inf], eps=1.0, rng=0), ValueError, "value"),
    ("laplace value strings", lambda: m.laplace(["a"], eps=1.0, rng=0), TypeError, "value"),
    ("laplace rng negative", lambda: m.laplace(0.0, eps=1.0, rng=-1), ValueError, "rng"),
    ("exponential 2-d", lambda: m.exponential([[1.0, 2.0]], eps=1.0, rng=0), ValueError, "utilities"),
    ("exponential inf utility", lambda: m.exponential([1.0, np.inf], eps=1.0, rng=0), ValueError, "utilities"),
    ("exponential base zeros", lambda: m.exponential([1.0, 2.0], eps=1.0, rng=0, base_measure=[0, 0]), ValueError,
     "base_measure"),
    ("exponential_probabilities eps 0", lambda: m.exponential_probabilities([1.0], eps=0.0), ValueError, "eps"),
    ("exponential_rows 1-d", lambda: m.exponential_rows([1.0, 2.0], eps=1.0, rng=0), ValueError, "utilities"),
    ("geometric eps 1e-20", lambda: m.geometric(0, eps=1e-20, rng=0), ValueError, "eps"),
    ("geometric int64 max", lambda: m.geometric(np.iinfo(np.int64).max, eps=1.0, rng=0), ValueError, "value"),
    ("geometric huge float", lambda: m.geometric(1e19, eps=1.0, rng=0), ValueError, "value"),
    ("geometric fraction", lambda: m.geometric([0.5], eps=1.0, rng=0), ValueError, "value"),
    ("geometric strings", lambda: m.geometric(np.array(["1"]), eps=1.0, rng=0), ValueError, "value"),
    ("geometric_pmf eps -1", lambda: m.geometric_pmf(0, eps=-1.0), ValueError, "eps"),
    # ---------------------------------------------------------------- partition
    ("dp_kdtree no rng", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, **PUB), TypeError, "rng"),
    ("dp_kdtree positional rng", lambda: dp_kdtree(DF, ["x"], "s", 1.0, 2, 0, **PUB), TypeError, "positional"),
    ("dp_kdtree float domain", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 9.5)},
                                                 sa_values=SAV), TypeError, "domain"),
    ("dp_kdtree domain not pair", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": 9},
                                                    sa_values=SAV), ValueError, "domain"),
    ("dp_kdtree domain list", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=[(0, 9)], sa_values=SAV),
     TypeError, "domain"),
    ("dp_kdtree domain too wide", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (-2 ** 62, 2 ** 62)},
                                                    sa_values=SAV), ValueError, "domain"),
    ("dp_kdtree height 31", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=31, rng=0, **PUB), ValueError, "height"),
    ("dp_kdtree height float", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2.5, rng=0, **PUB), TypeError, "height"),
    ("dp_kdtree median_fraction 1", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, median_fraction=1.0, **PUB),
     ValueError, "median_fraction"),
    ("dp_kdtree sa_values duplicated", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM,
                                                         sa_values=["a", "a", "b"]), ValueError, "sa_values"),
    ("dp_kdtree sa_values missing one", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM,
                                                          sa_values=["a"]), ValueError, "sa_values"),
    ("dp_kdtree sa_values empty", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM, sa_values=[]),
     ValueError, "sa_values"),
    ("dp_kdtree sa_values string", lambda: dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM, sa_values="ab"),
     TypeError, "sa_values"),
    ("dp_kdtree duplicated columns", lambda: dp_kdtree(_dup_columns(), ["x"], "s", eps=1.0, height=2, rng=0, **PUB),
     ValueError, "duplicated"),
    ("dp_kdtree not a frame", lambda: dp_kdtree(DF.to_numpy(), ["x"], "s", eps=1.0, height=2, rng=0, **PUB), TypeError, "df"),
    ("dp_kdtree NaN QI", lambda: dp_kdtree(DF.assign(x=np.where(DF["x"] > 8, np.nan, DF["x"])), ["x"], "s", eps=1.0,
                                           height=2, rng=0, **PUB), ValueError, "NaN"),
    ("dp_kdtree empty", lambda: dp_kdtree(DF.iloc[:0], ["x"], "s", eps=1.0, height=2, rng=0, **PUB), ValueError, "df"),
    ("mondrian k > n", lambda: mondrian(DF, ["x"], "s", k=61), ValueError, "k"),
    ("mondrian k = 0", lambda: mondrian(DF, ["x"], "s", k=0), ValueError, "k"),
    ("mondrian max_height -1", lambda: mondrian(DF, ["x"], "s", k=2, max_height=-1), ValueError, "max_height"),
    ("mondrian t nan", lambda: mondrian(DF, ["x"], "s", k=2, t=np.nan), ValueError, "t"),
    ("mondrian distance", lambda: mondrian(DF, ["x"], "s", k=2, distance="l2"), ValueError, "distance"),
    ("mondrian t_rule", lambda: mondrian(DF, ["x"], "s", k=2, t=0.2, t_rule="loose"), ValueError, "t_rule"),
    ("mondrian t_rule None", lambda: mondrian(DF, ["x"], "s", k=2, t=0.2, t_rule=None), ValueError, "t_rule"),
    ("mondrian ordered text SA", lambda: mondrian(DF, ["x"], "s", k=2, t=0.2, distance="ordered"), ValueError,
     "sa_values"),
    ("mondrian ordered unordered categorical SA",
     lambda: mondrian(DF.assign(s=DF["s"].astype("category")), ["x"], "s", k=2, t=0.2, distance="ordered"),
     ValueError, "sa_values"),
    ("build t_rule", lambda: ep.build(SETUP, "t", 0.2, rng=0, t_rule="both"), ValueError, "t_rule"),
    ("mondrian sa list", lambda: mondrian(DF, ["x"], ["s"], k=2), TypeError, "sa"),
    ("mondrian float domain", lambda: mondrian(DF, ["x"], "s", k=2, domain={"x": (0.5, 9)}), TypeError, "domain"),
    ("qi_codes fractional floats", lambda: qi_codes(DF.assign(x=DF["x"] + 0.5), ["x"]), TypeError, "qi"),
    ("qi_codes huge floats", lambda: qi_codes(DF.assign(x=DF["x"] * 1e300), ["x"]), ValueError, "qi"),
    ("qi_codes inf", lambda: qi_codes(DF.assign(x=DF["x"].astype(float).where(DF["x"] < 9, np.inf)), ["x"]),
     ValueError, "qi"),
    ("qi_codes no QI", lambda: qi_codes(DF, []), ValueError, "qi"),
    ("qi_codes repeated QI", lambda: qi_codes(DF, ["x", "x"]), ValueError, "qi"),
    ("encode duplicated order", lambda: encode_ordinal(DF, {"s": ["a", "a", "b"]}), ValueError, "orders"),
    # ---------------------------------------------------------------- metrics
    ("range_workload no rng", lambda: metrics.range_workload(DF, ["x"], n=5, domain=DOM), TypeError, "rng"),
    ("range_workload n float", lambda: metrics.range_workload(DF, ["x"], n=2.5, rng=0, domain=DOM), TypeError, "n"),
    ("range_workload float domain", lambda: metrics.range_workload(DF, ["x"], n=5, rng=0, domain={"x": (0, 9.5)}),
     TypeError, "domain"),
    ("range_workload duplicated columns", lambda: metrics.range_workload(_dup_columns(), ["x"], n=5, rng=0),
     ValueError, "duplicated"),
    ("range_workload max_rounds 0", lambda: metrics.range_workload(DF, ["x"], n=5, rng=0, max_rounds=0), ValueError,
     "max_rounds"),
    ("query_readings no rng", lambda: ep.query_readings(DF, ["x"], n=5), TypeError, "rng"),
    ("query_readings empty", lambda: ep.query_readings(DF.iloc[:0], ["x"], n=5, rng=0), ValueError, "df"),
    ("Setup.sample no rng", lambda: SETUP.sample(0.5), TypeError, "rng"),
    ("Setup.sample fraction 0", lambda: SETUP.sample(0.0, rng=0), ValueError, "fraction"),
    ("Setup.sample fraction 2", lambda: SETUP.sample(2.0, rng=0), ValueError, "fraction"),
    ("Setup.sample fraction tiny", lambda: SETUP.sample(1e-9, rng=0), ValueError, "fraction"),
    ("build no rng", lambda: ep.build(SETUP, "eps", 1.0), TypeError, "rng"),
    ("build bad model", lambda: ep.build(SETUP, "delta", 1.0, rng=0), ValueError, "model"),
    ("build not a setup", lambda: ep.build(DF, "k", 2, rng=0), TypeError, "setup"),
    ("evaluate no rng", lambda: ep.evaluate(SETUP, WL, "k", 2), TypeError, "rng"),
    ("sweep seed None", lambda: ep.sweep({"t": SETUP}, {"t": WL}, [("t", "eps", 1.0, None, {"height": 2})]),
     TypeError, "seed"),
    ("sweep seed float", lambda: ep.sweep({"t": SETUP}, {"t": WL}, [("t", "eps", 1.0, 0.5, {"height": 2})]),
     TypeError, "seed"),
    ("sweep n_jobs 0", lambda: ep.sweep({"t": SETUP}, {"t": WL}, [], n_jobs=0), ValueError, "n_jobs"),
    ("true_answers prefix on a huge domain", lambda: metrics.true_answers(
        np.array([[0, 0]]), np.array([[0, 0]]), np.array([[1, 1]]), domain_lower=[0, 0], domain_upper=[10 ** 6, 10 ** 6], method="prefix"),
     ValueError, "method"),
    ("estimate_answers wrong workload", lambda: metrics.estimate_answers(DEC, DF), TypeError, "workload"),
    ("estimate_answers method", lambda: metrics.estimate_answers(DEC, WL, method="exact"), ValueError, "method"),
    ("leaf_counts match_total alone", lambda: metrics.leaf_counts(DEC, match_total=True), ValueError, "match_total"),
    ("privacy_breach shapes", lambda: metrics.privacy_breach(["a"], ["a", "b"]), ValueError, "predicted"),
    ("privacy_breach rho 0", lambda: metrics.privacy_breach(["a"], ["a"], rho=0.0), ValueError, "rho"),
    ("majority_accuracy empty", lambda: metrics.majority_accuracy([]), ValueError, "actual"),
    # ---------------------------------------------------------------- attacks
    ("naive_bayes not a decomposition", lambda: naive_bayes(DF, DF), TypeError, "decomposition"),
    ("naive_bayes wrong qi", lambda: naive_bayes(DEC, DF, qi=["y", "x"]), ValueError, "qi"),
    ("naive_bayes outside domain", lambda: naive_bayes(DEC, DF.assign(x=DF["x"] + 100)), ValueError, "df"),
    ("naive_bayes missing sa", lambda: naive_bayes(DEC, DF.drop(columns="s")), ValueError, "sa"),
    ("naive_bayes empty", lambda: naive_bayes(DEC, DF.iloc[:0]), ValueError, "df"),
    ("leaf_majority not a decomposition", lambda: leaf_majority(DF, DF), TypeError, "decomposition"),
    ("leaf_majority outside domain", lambda: leaf_majority(DEC, DF.assign(x=DF["x"] + 100)), ValueError, "df"),
    ("leaf_majority missing sa", lambda: leaf_majority(DEC, DF.drop(columns="s")), ValueError, "sa"),
    ("leaf_majority empty", lambda: leaf_majority(DEC, DF.iloc[:0]), ValueError, "df"),
    ("leaf_majority NaN QI", lambda: leaf_majority(DEC, DF.assign(x=np.where(DF["x"] > 8, np.nan, DF["x"]))),
     ValueError, "NaN"),
    ("kernel_conditionals not a decomposition", lambda: kernel_conditionals("tree"), TypeError, "decomposition"),
    ("naive_bayes method", lambda: naive_bayes(DEC, DF, method="dense"), ValueError, "method"),
    # ---------------------------------------------------------------- public building blocks
    ("root_box not a dict", lambda: root_box(qi_codes(DF, ["x"]), ["x"], domain=[(0, 9)]), TypeError, "domain"),
    ("root_box outside", lambda: root_box(qi_codes(DF, ["x"]), ["x"], domain={"x": (0, 3)}), ValueError, "domain"),
    ("private_medians no rng", lambda: private_medians([1, 2], [0, 0], [0], [5], eps=1.0), TypeError, "rng"),
    ("private_medians eps 0", lambda: private_medians([1, 2], [0, 0], [0], [5], eps=0.0, rng=0), ValueError, "eps"),
    ("private_medians float codes", lambda: private_medians([1.5], [0], [0], [5], eps=1.0, rng=0), ValueError,
     "codes"),
    ("private_medians lengths", lambda: private_medians([1, 2], [0], [0], [5], eps=1.0, rng=0), ValueError, "node"),
    ("private_medians code outside", lambda: private_medians([7], [0], [0], [5], eps=1.0, rng=0), ValueError,
     "codes"),
    ("private_medians bad node", lambda: private_medians([1], [1], [0], [5], eps=1.0, rng=0), ValueError, "node"),
    ("private_medians no cut", lambda: private_medians([1], [0], [1], [1], eps=1.0, rng=0), ValueError, "lower"),
    ("median_cut_probabilities eps", lambda: median_cut_probabilities([1], [0], [0], [5], eps=-1.0), ValueError,
     "eps"),
    ("overlap_fractions wrong workload", lambda: metrics.overlap_fractions(DEC, DF), TypeError, "workload"),
    ("overlap_fractions not a decomposition", lambda: metrics.overlap_fractions(DF, WL), TypeError, "decomposition"),
]


@pytest.mark.parametrize("fn, exc, match", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_a_clear_error(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()


# ---------------------------------------------------------------------------- extreme but valid inputs
def test_k_equal_to_n_gives_the_root():
    dec = mondrian(DF, ["x", "y"], "s", k=len(DF), **PUB)
    assert dec.n_leaves == 1 and dec.counts[0] == len(DF)


def test_single_record_tables():
    one = DF.iloc[:1]
    assert mondrian(one, ["x"], "s", k=1).n_leaves == 1
    dec = dp_kdtree(one, ["x"], "s", eps=1.0, height=3, rng=0, domain={"x": (0, 9)}, sa_values=SAV)
    assert dec.ledger.total() == pytest.approx(1.0, abs=1e-12)


def test_sa_values_absent_from_the_data_are_public_columns():
    dec = dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM, sa_values=("a", "b", "zzz"))
    assert dec.histograms.shape[1] == 3 and dec.sa_values == ("a", "b", "zzz")


def test_integer_valued_float_domain_is_accepted():
    a = dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0.0, 9.0)}, sa_values=SAV)
    b = dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 9)}, sa_values=SAV)
    assert np.array_equal(a.histograms, b.histograms)


# ---------------------------------------------------------------------------- probe regressions
def test_dp_kdtree_rng_is_required_so_neighbours_never_share_noise():
    # with the old default rng=0, two neighbouring tables got identical noise: the released
    # counts differed in exactly one cell by exactly 1 at the removed record
    with pytest.raises(TypeError, match="rng"):
        dp_kdtree(DF, ["x", "y"], "s", eps=1.0, height=2, **PUB)
    a = dp_kdtree(DF, ["x", "y"], "s", eps=1.0, height=2, rng=np.random.default_rng(1), **PUB)
    b = dp_kdtree(DF.iloc[1:], ["x", "y"], "s", eps=1.0, height=2, rng=np.random.default_rng(2), **PUB)
    if a.histograms.shape == b.histograms.shape:
        diff = np.abs(a.histograms - b.histograms)
        assert (diff > 1e-9).sum() > 1


def test_dp_kdtree_without_domain_warns_naming_domain():
    with pytest.warns(PrivacyLeakWarning, match="`domain`"):
        dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, sa_values=SAV)
    with pytest.warns(PrivacyLeakWarning, match="`sa_values`"):
        dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, domain=DOM)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dp_kdtree(DF, ["x"], "s", eps=1.0, height=2, rng=0, **PUB)                 # public: no warning
        metrics.range_workload(DF, ["x"], n=5, rng=0)                        # not a release: no warning
        mondrian(DF, ["x"], "s", k=2)                                        # syntactic: no budget


@pytest.fixture(scope="module")
def adult():
    return ep.adult_setup()


@pytest.mark.parametrize("height, fraction", [(0, 0.3), (3, 0.3), (8, 0.0), (10, 0.3), (12, 0.9)])
def test_dp_ledger_total_is_eps_on_adult(adult, height, fraction):
    eps = 0.37
    dec = dp_kdtree(adult.df, list(adult.qi), adult.sa, eps=eps, height=height, rng=height, median_fraction=fraction,
                    domain=adult.domain, sa_values=adult.sa_values)
    assert isinstance(dec.ledger, Ledger)
    assert abs(dec.ledger.total() - eps) <= 1e-12
    assert np.all(np.abs(dec.path_spend() - eps) <= 1e-12)
    costs = dec.ledger.path_costs()
    assert max(costs.values()) == pytest.approx(eps, abs=1e-12)
    assert {e.composition for e in dec.ledger} == {"path"}
    n_leaf_entries = sum(e.mechanism == "laplace" for e in dec.ledger)
    assert n_leaf_entries == dec.n_leaves                                   # one entry per leaf
    n_inner = int((dec.tree_leaf < 0).sum())
    assert sum(e.mechanism == "exponential" for e in dec.ledger) == (n_inner if fraction > 0 else 0)
    for e in dec.ledger:                                                    # paths start at the root
        assert e.path[0] == 0


def test_mondrian_nanosecond_timestamps_no_overflow_and_terminates():
    gen = np.random.default_rng(3)
    ts = pd.DataFrame({"t": np.int64(1_700_000_000_000_000_000) + gen.integers(0, 10 ** 15, 2000),
                       "u": gen.integers(0, 50, 2000), "s": gen.choice(["a", "b", "c"], 2000)})
    dec = mondrian(ts, ["t", "u"], "s", k=7)                                  # no max_height: must return
    inside = np.bincount(dec.assign(ts), minlength=dec.n_leaves)
    assert np.array_equal(dec.counts, inside) and inside.min() >= 7       # published = records inside
    vol = np.prod((dec.upper - dec.lower + 1).astype(float), axis=1).sum()
    assert vol == pytest.approx(np.prod((dec.domain_upper - dec.domain_lower + 1).astype(float)), rel=1e-9)
    # the same tree as with codes shifted to start at 0 (the fast path)
    small = ts.assign(t=ts["t"] - ts["t"].min())
    ref = mondrian(small, ["t", "u"], "s", k=7)
    assert np.array_equal(ref.lower[:, 1], dec.lower[:, 1]) and np.array_equal(ref.counts, dec.counts)


def test_mondrian_terminates_on_identical_records():
    same = pd.DataFrame({"x": np.full(50, 3), "s": ["a", "b"] * 25})
    dec = mondrian(same, ["x"], "s", k=1, domain={"x": (0, 9)})
    assert np.array_equal(dec.counts[dec.counts > 0], [50])


def test_overlap_fractions_millisecond_qi():
    gen = np.random.default_rng(4)
    ms = pd.DataFrame({"t": np.int64(1_600_000_000_000) + gen.integers(0, 10 ** 9, 3000),
                       "u": gen.integers(0, 4, 3000), "s": gen.choice(["a", "b"], 3000)})
    dom = {"t": (1_600_000_000_000, 1_600_000_000_000 + 10 ** 9 - 1), "u": (0, 3)}
    dec = mondrian(ms, ["t", "u"], "s", k=10, domain=dom)
    wl = metrics.range_workload(ms, ["t", "u"], n=200, rng=1, domain=dom)
    est = metrics.estimate_answers(dec, wl, method="overlap")
    # independent: exact integer overlaps in Python ints
    ref = np.zeros(wl.n_queries)
    for q in range(wl.n_queries):
        f = np.ones(dec.n_leaves)
        for j in range(2):
            ov = np.minimum(wl.upper[q, j], dec.upper[:, j]) - np.maximum(wl.lower[q, j], dec.lower[:, j]) + 1
            f *= np.maximum(ov, 0) / (dec.upper[:, j] - dec.lower[:, j] + 1)
        ref[q] = f @ dec.counts
    np.testing.assert_allclose(est, ref, rtol=1e-5)
    assert metrics.median_relative_error(dec, wl) < 0.05                   # was 4.76 with int32 bounds


def test_dp_kdtree_memory_grows_with_records_not_domain_width():
    gen = np.random.default_rng(5)
    wide = pd.DataFrame({"x": gen.integers(0, 10 ** 6, 100), "s": gen.choice(["a", "b"], 100)})
    tracemalloc.start()
    dec = dp_kdtree(wide, ["x"], "s", eps=1.0, height=12, rng=0, domain={"x": (0, 10 ** 6 - 1)}, sa_values=SAV)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2 ** 20, f"peak {peak / 2 ** 20:.0f} MiB"           # was 877 MiB
    assert dec.n_leaves > 1000
    # a width of 2**61 codes works too (no dense per-node array could)
    dp_kdtree(wide, ["x"], "s", eps=1.0, height=4, rng=0, domain={"x": (0, 2 ** 61)}, sa_values=SAV)


@pytest.mark.parametrize("seed", range(6))
def test_piecewise_median_probabilities_equal_the_dense_mechanism(seed):
    gen = np.random.default_rng(seed)
    K = 3
    lo = np.array([0, 2, 5])
    hi = np.array([12, 9, 6])
    k = np.repeat(np.arange(K), [9, 4, 0])                   # the last node holds no record
    z = np.concatenate([gen.integers(lo[i], hi[i] + 1, c) for i, c in enumerate([9, 4, 0])]).astype(np.int64)
    eps = float(gen.uniform(0.2, 3.0))
    probabilities = median_cut_probabilities(z, k, lo, hi, eps=eps)
    for i in range(K):
        cuts = np.arange(lo[i], hi[i])
        zi = z[k == i]
        u = -np.abs((zi[None, :] <= cuts[:, None]).sum(axis=1) - zi.size / 2.0)
        dense = m.exponential_probabilities(u, eps=eps)
        mine = probabilities[i]
        np.testing.assert_allclose(mine, dense, rtol=1e-12, atol=1e-15)


def test_piecewise_median_sampler_frequencies():
    z = np.array([1, 1, 4, 4, 4, 7, 9], dtype=np.int64)
    lo, hi, eps, reps = np.array([0]), np.array([11]), 1.3, 40_000
    K = reps                                                    # many independent copies of one node
    draws = private_medians(np.tile(z, K), np.repeat(np.arange(K), z.size), np.repeat(lo, K), np.repeat(hi, K),
                            eps=eps, rng=np.random.default_rng(8))
    cuts = np.arange(lo[0], hi[0])
    u = -np.abs((z[None, :] <= cuts[:, None]).sum(axis=1) - z.size / 2.0)
    p = m.exponential_probabilities(u, eps=eps)
    counts = np.bincount(draws - lo[0], minlength=cuts.size)
    assert counts.size == cuts.size
    assert stats.chisquare(counts, p * reps).pvalue > 0.001


def test_attack_on_a_nanosecond_qi_needs_no_domain_wide_table():
    gen = np.random.default_rng(6)
    t0 = np.int64(1_700_000_000_000_000_000)
    df = pd.DataFrame({"t": t0 + gen.integers(0, 10 ** 15, 600), "u": gen.integers(0, 5, 600),
                       "s": gen.choice(["a", "b", "c"], 600)})
    dec = mondrian(df, ["t", "u"], "s", k=20)
    with pytest.raises(ValueError, match="decomposition"):
        kernel_conditionals(dec)                                            # 10**15 x 3 table: refused
    tracemalloc.start()
    pred = naive_bayes(dec, df)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2 ** 20
    # the same attack on the codes shifted to a narrow domain (dense tables): same beliefs
    shift = df["t"].min()
    narrow = df.assign(t=(df["t"] - shift) // 10 ** 9)                      # seconds: ~10**6 codes
    small = mondrian(narrow, ["t", "u"], "s", k=20)
    ref = naive_bayes(small, narrow)
    assert 0 <= pred.accuracy <= 1 and np.allclose(pred.beliefs.sum(axis=1), 1.0)
    # an independent check: the record-wise evaluation equals the dense tables on a narrow domain
    records = naive_bayes(small, narrow, method="records")
    np.testing.assert_allclose(records.beliefs, ref.beliefs, rtol=1e-9, atol=1e-15)
    assert naive_bayes(small, narrow, method="tables").beliefs.tolist() == ref.beliefs.tolist()
    with pytest.raises(ValueError, match="decomposition"):
        naive_bayes(dec, df, method="tables")                                # the wide QI has no table
    assert ref.beliefs.shape == pred.beliefs.shape


def test_workload_on_a_tiny_corner_of_a_huge_domain_gives_up_clearly():
    corner = pd.DataFrame({"x": np.zeros(10, dtype=np.int64), "s": ["a"] * 10})
    with pytest.raises(RuntimeError, match="max_rounds"):
        metrics.range_workload(corner, ["x"], n=50, rng=0, domain={"x": (0, 10 ** 12)}, max_rounds=2)
    with pytest.raises(RuntimeError, match="max_rounds"):
        ep.query_readings(corner, ["x"], n=50, rng=0, domain={"x": (0, 10 ** 5)}, max_rounds=2)
    with pytest.raises(ValueError, match="domain"):                          # masks as wide as the domain
        ep.query_readings(corner, ["x"], n=50, rng=0, domain={"x": (0, 10 ** 12)})


def test_true_answers_scan_on_a_huge_domain_matches_a_hand_count():
    X = np.array([[0, 5], [10 ** 9, 7], [3, 10 ** 9]])
    L = np.array([[0, 0], [0, 6]])
    U = np.array([[10 ** 9, 10], [10 ** 9, 10 ** 9]])
    assert metrics.true_answers(X, L, U, domain_lower=[0, 0], domain_upper=[10 ** 9, 10 ** 9]).tolist() == [2, 2]


def test_ordered_distance_never_sorts_text_as_text():
    """Regression: mondrian(distance="ordered") on a text SA used to sort '11K' before '3K'."""
    df = pd.DataFrame({"x": np.arange(12), "s": ["3K", "11K", "20K"] * 4})
    with pytest.raises(ValueError, match="sa_values"):
        mondrian(df, ["x"], "s", k=2, t=0.1, distance="ordered")
    dec = mondrian(df, ["x"], "s", k=2, t=0.1, distance="ordered", sa_values=["3K", "11K", "20K"])
    assert dec.sa_values == ("3K", "11K", "20K")


def test_source_t_rule_is_the_sources_sentence():
    """Regression: the t-closeness variant of the source stops splitting a node whose EMD to the root
    exceeds t; the old code only allowed splits whose children were both within t."""
    df = pd.DataFrame({"x": np.arange(8), "s": list("aaaabbbb")})
    assert mondrian(df, ["x"], "s", k=2, t=0.3, t_rule="source").n_leaves == 2
    assert ep.build(ep.Setup("toy", df, ("x",), "s", {"x": (0, 7)}), "t", 0.3, rng=0, k=2).n_leaves == 2
    assert mondrian(df, ["x"], "s", k=2, t=0.3).n_leaves == 1


def test_leaf_majority_huge_codes():
    """Nanosecond-like codes: the leaf lookup needs no domain-wide table."""
    base = 1_600_000_000_000_000_000
    df = pd.DataFrame({"x": base + np.arange(0, 40) * 10**9, "s": ["a"] * 20 + ["b"] * 20})
    dec = mondrian(df, ["x"], "s", k=10)
    assert leaf_majority(dec, df).accuracy == pytest.approx(1.0)


def test_private_medians_is_the_kdtree_split_rule():
    """The public private median draws exactly what dp_kdtree's root split draws (same generator state)."""
    gen = np.random.default_rng(11)
    df = pd.DataFrame({"x": gen.integers(0, 50, 80), "s": gen.choice(["a", "b"], 80)})
    dec = dp_kdtree(df, ["x"], "s", eps=2.0, height=1, rng=5, median_fraction=0.5, domain={"x": (0, 49)},
                    sa_values=SAV)
    cut = private_medians(df["x"].to_numpy(), np.zeros(80, dtype=np.int64), [0], [49], eps=0.5, rng=5)
    assert dec.tree_threshold[0] == cut[0]
    p = median_cut_probabilities(df["x"].to_numpy(), np.zeros(80, dtype=np.int64), [0], [49], eps=0.5)[0]
    assert p.shape == (49,) and p.sum() == pytest.approx(1.0)


def test_overlap_fractions_answer_the_workload():
    frac = metrics.overlap_fractions(DEC, WL)
    assert frac.shape == (WL.n_queries, DEC.n_leaves)
    np.testing.assert_allclose(frac.astype(float) @ metrics.leaf_counts(DEC),
                               metrics.estimate_answers(DEC, WL, method="overlap"), rtol=1e-6)
