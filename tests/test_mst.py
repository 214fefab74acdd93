"""MST (privlib.synth.mst): errors, hand-worked accounting and estimation, the ledger, properties."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from privlib.accounting import zcdp_to_dp
from privlib.experiments import one_scale as osc
from privlib.experiments.empirical_privacy import Setup
from privlib.synth import IPF_ROUNDS, MSTSynthesis, mst

# a = b exactly; c independent of both (each (a, c) combination 25 times): the tree must join a and b first
AB = pd.DataFrame({"a": np.repeat([0, 1], 50), "b": np.repeat(["x", "y"], 50), "c": np.tile([0, 1], 50)})
DOM = {"a": [0, 1], "b": ["x", "y"], "c": [0, 1]}
HUGE = 1000.0        # rho about 790: Gaussian variances about 0.006, noise 0 on every count


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("data, domain, exc, match", [
    ([[0, 1]], DOM, TypeError, r"data: expected a pandas DataFrame, got list"),
    (AB, [("a", [0, 1])], TypeError, r"domain: expected a mapping"),
    (AB[["a"]], {"a": [0, 1]}, ValueError, r"data: expected at least two columns .* got \['a'\]"),
    (pd.DataFrame([[0, 0]], columns=["a", "a"]), {"a": [0, 1]}, ValueError, r"data: expected unique column names"),
    (AB, {"a": [0, 1], "b": ["x", "y"]}, ValueError, r"domain: expected exactly the columns of data"),
    (AB, {**DOM, "c": "01"}, TypeError, r"domain: expected a sequence of public values for column 'c', got str"),
    (AB, {**DOM, "c": 2}, TypeError, r"domain: expected a sequence of public values for column 'c', got int"),
    (AB, {**DOM, "c": []}, ValueError, r"domain: expected a non-empty sequence of distinct values .* column 'c'"),
    (AB, {**DOM, "c": [0, 1, 1]}, ValueError, r"distinct values .* column 'c', got \[0, 1, 1\]"),
    (AB, {**DOM, "c": [0, 1, np.nan]}, ValueError, r"distinct values \(no NaN\) for column 'c'"),
    (AB, {**DOM, "c": [0]}, ValueError, r"data: column 'c' holds 1, outside its public domain \[0\]"),
    (AB.assign(b=["x"] * 99 + ["z"]), DOM, ValueError, r"data: column 'b' holds 'z', outside its public domain "
                                                       r"\['x', 'y'\]"),
    (AB.assign(c=[0.0] * 99 + [np.nan]), DOM, ValueError, r"data: column 'c' holds nan, outside its public domain"),
])
def test_bad_inputs(data, domain, exc, match):
    with pytest.raises(exc, match=match):
        mst(data, domain, eps=1.0, delta=1e-6, rng=0)


@pytest.mark.parametrize("kw, exc, match", [
    ({"eps": 0.0}, ValueError, r"eps"), ({"eps": -1.0}, ValueError, r"eps"), ({"eps": math.nan}, ValueError, r"eps"),
    ({"eps": "1"}, TypeError, r"eps"), ({"delta": 0.0}, ValueError, r"delta"), ({"delta": 1.0}, ValueError, r"delta"),
    ({"delta": "x"}, TypeError, r"delta"), ({"rng": 1.5}, TypeError, r"rng"), ({"rng": -1}, ValueError, r"rng"),
])
def test_bad_budget_and_rng(kw, exc, match):
    args = {"eps": 1.0, "delta": 1e-6, "rng": 0, **kw}
    with pytest.raises(exc, match=match):
        mst(AB, DOM, **args)


def test_rng_is_required():
    with pytest.raises(TypeError, match="rng"):
        mst(AB, DOM, eps=1.0, delta=1e-6)


def test_an_eps_too_small_for_the_exact_sampler_names_eps():
    with pytest.raises(ValueError, match=r"eps: 1e-05 \(delta = 1e-06\) needs Gaussian noise of variance .* "
                                         r"expected a larger eps"):
        mst(AB, DOM, eps=1e-5, delta=1e-6, rng=0)


# ----------------------------------------------------------------------------- accounting, worked by hand
def rho_of(eps, delta=1e-6):
    """The largest rho with zcdp_to_dp(rho) = eps, by the quadratic formula."""
    L = math.log(1 / delta)
    return (math.sqrt(L + eps) - math.sqrt(L)) ** 2


@pytest.mark.parametrize("eps", [0.01, 0.1, 1.0, 10.0])
def test_rho_inverts_zcdp_to_dp(eps):
    syn = mst(AB, DOM, eps=eps, delta=1e-6, rng=2)
    assert syn.rho == pytest.approx(rho_of(eps), rel=1e-9)
    assert zcdp_to_dp(syn.rho, delta=1e-6) <= eps and zcdp_to_dp(syn.rho, delta=1e-6) == pytest.approx(eps, rel=1e-12)


def test_the_budget_is_split_in_thirds_by_hand():
    # d = 3: the 1-way release has L2 sensitivity sqrt(3), sigma2 = 3 / (2 rho / 3) = 4.5 / rho; two exponential
    # draws at eps_sel = sqrt(8 (rho / 3) / 2), each eps_sel**2 / 8 = rho / 6; the 2-way release of 2 marginals
    # has sensitivity sqrt(2), sigma2 = 2 / (2 rho / 3) = 3 / rho
    syn = mst(AB, DOM, eps=1.0, delta=1e-6, rng=0)
    rho = rho_of(1.0)
    c = syn.calls
    assert c["step"].tolist() == ["1-way marginals", "tree selection", "tree selection", "2-way marginals"]
    assert c["mechanism"].tolist() == ["discrete gaussian", "exponential", "exponential", "discrete gaussian"]
    assert c["scale"].tolist() == pytest.approx([4.5 / rho, math.sqrt(4 * rho / 3), math.sqrt(4 * rho / 3), 3 / rho])
    assert c["sensitivity"].tolist() == pytest.approx([math.sqrt(3), 1.0, 1.0, math.sqrt(2)])
    assert c.groupby("step", sort=False)["rho"].sum().tolist() == pytest.approx([rho / 3] * 3, rel=1e-12)


@pytest.mark.parametrize("eps", [0.05, 1.0, 10.0])
def test_the_ledger_sums_to_the_target(eps):
    syn = mst(AB, DOM, eps=eps, delta=1e-6, rng=1)
    assert syn.rho_spent == pytest.approx(syn.calls["rho"].sum(), rel=0) and syn.rho_spent <= syn.rho * (1 + 1e-12)
    assert syn.rho == pytest.approx(rho_of(eps), rel=1e-9)
    assert len(syn.ledger) == 1 and syn.ledger.total() == zcdp_to_dp(syn.rho_spent, delta=1e-6)
    assert syn.ledger.total() == pytest.approx(eps, rel=1e-12)
    syn.ledger.check(eps)                                  # raises if the total exceeds the target


# ----------------------------------------------------------------------------- estimation, worked by hand
def test_huge_eps_recovers_the_data_by_hand():
    syn = mst(AB, DOM, eps=HUGE, delta=1e-6, rng=0)
    assert isinstance(syn, MSTSynthesis)
    assert syn.tree[0] == ("a", "b")                       # L1 weight 100 against 0 for the pairs with c
    assert syn.total == pytest.approx(100.0, rel=1e-12) and len(syn.synthetic) == 100
    assert syn.kept == {"a": (0, 1), "b": ("x", "y"), "c": (0, 1)}
    s = syn.synthetic
    assert ((s["a"] == 0) == (s["b"] == "x")).all()       # a = b in every synthetic record
    assert syn.two_way[("a", "b")].tolist() == [[0.5, 0.0], [0.0, 0.5]]
    for col in "abc":
        assert syn.one_way[col].tolist() == [0.5, 0.5]


def test_compression_merges_rare_values_and_spreads_them_uniformly():
    # column c has 6 public values, 2 of them never seen: with noise 0 the two zeros are merged and their
    # (zero) mass spread equally; every synthetic value stays inside the public domain
    df = pd.DataFrame({"a": np.repeat([0, 1], 40), "c": np.tile([0, 1, 2, 3], 20)})
    syn = mst(df, {"a": [0, 1], "c": [0, 1, 2, 3, 4, 5]}, eps=HUGE, delta=1e-6, rng=0)
    assert syn.kept["c"] == (0, 1, 2, 3)
    assert syn.one_way["c"].tolist() == pytest.approx([0.25, 0.25, 0.25, 0.25, 0.0, 0.0])
    assert set(syn.synthetic["c"]) <= {0, 1, 2, 3}
    # at eps = 0.05 the noise (sigma about 270) swamps every count: every value merged, the data uniform
    low = mst(df, {"a": [0, 1], "c": [0, 1, 2, 3, 4, 5]}, eps=0.05, delta=1e-6, rng=0)
    assert low.kept == {"a": (), "c": ()}
    assert low.one_way["c"].tolist() == pytest.approx([1 / 6] * 6)
    assert set(low.synthetic["c"]) <= set(range(6))


def test_a_negative_total_gives_no_records():
    # a few records and a small eps: find a seed whose noisy total rounds to 0 or below
    tiny = AB.iloc[:2]
    for seed in range(200):
        syn = mst(tiny, DOM, eps=0.05, delta=1e-6, rng=seed)
        if syn.total < 0.5:
            break
    assert syn.total < 0.5 and syn.synthetic.empty and list(syn.synthetic.columns) == ["a", "b", "c"]
    assert np.isclose(syn.one_way["a"].sum(), 1.0)


# ----------------------------------------------------------------------------- properties
@pytest.mark.parametrize("seed", range(6))
def test_property_huge_eps_recovers_the_tree_marginals(seed):
    gen = np.random.default_rng(seed)
    n, k = 400, [3, 4, 2, 5]
    x0 = gen.integers(0, k[0], n)
    df = pd.DataFrame({"v0": x0, "v1": (x0 + gen.integers(0, 2, n)) % k[1], "v2": gen.integers(0, k[2], n),
                       "v3": gen.integers(0, k[3], n)})
    dom = {c: list(range(m)) for c, m in zip(df.columns, k)}
    syn = mst(df, dom, eps=HUGE, delta=1e-6, rng=seed)
    assert len(syn.tree) == 3 and syn.total == pytest.approx(n, rel=1e-12) and len(syn.synthetic) == n
    for (a, b), t in syn.two_way.items():
        true = pd.crosstab(df[a], df[b]).reindex(index=dom[a], columns=dom[b], fill_value=0).to_numpy() / n
        assert np.allclose(t, true, atol=1e-9), (a, b)
    for c in df.columns:
        assert np.allclose(syn.one_way[c], np.bincount(df[c], minlength=len(dom[c])) / n)


@pytest.mark.parametrize("eps", [0.01, 0.3, 3.0])
def test_property_estimates_are_distributions_and_the_tree_spans(eps):
    gen = np.random.default_rng(7)
    df = pd.DataFrame({"p": gen.integers(0, 5, 300), "q": gen.integers(0, 3, 300), "r": gen.integers(0, 7, 300)})
    dom = {"p": range(5), "q": range(3), "r": range(7)}
    syn = mst(df, dom, eps=eps, delta=1e-6, rng=3)
    seen = {a for e in syn.tree for a in e}
    assert len(syn.tree) == 2 and seen == {"p", "q", "r"}
    for c, p in syn.one_way.items():
        assert (p >= 0).all() and np.isclose(p.sum(), 1.0)
    for (a, b), t in syn.two_way.items():
        assert (t >= 0).all() and np.isclose(t.sum(), 1.0)
        assert np.allclose(t.sum(axis=1), syn.one_way[a], atol=1e-9)      # the parent's side is exact
    assert IPF_ROUNDS >= 1
    for c in df.columns:
        assert set(syn.synthetic[c]) <= set(dom[c])


def test_same_seed_same_output():
    a = mst(AB, DOM, eps=1.0, delta=1e-6, rng=np.random.default_rng(5))
    b = mst(AB, DOM, eps=1.0, delta=1e-6, rng=np.random.default_rng(5))
    pd.testing.assert_frame_equal(a.synthetic, b.synthetic)
    assert a.tree == b.tree


# ----------------------------------------------------------------------------- chapter 6's family
def test_mst_release_on_the_common_scale():
    df = pd.DataFrame({"x": np.tile([0, 1, 2, 3], 30), "y": np.repeat([0, 1], 60), "s": np.tile(["a", "b"], 60)})
    setup = Setup("toy", df, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b"))
    r = osc.release(setup, "mst", 2.0, rng=0)
    assert r.eps_common == 2.0 and r.decomposition.ledger.total() == pytest.approx(2.0, rel=1e-12)
    assert r.guarantee == osc.GUARANTEES["mst"][1] and osc.NEIGHBOURS["mst"] == "add or remove one record"
    assert r.decomposition.params["delta"] == osc.MST_DELTA == 1e-6
    exact = osc.mst_release(setup, HUGE, rng=0)
    assert exact.histograms.sum() == 120 and exact.params["released_records"] == 120
    assert "4 rho" in osc.common_guarantee("mst", 1.0)[1]
    # no record at all: one empty box carrying the ledger
    few = Setup("toy", df.iloc[:1], ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b"))
    for seed in range(200):
        dec = osc.mst_release(few, 0.05, rng=seed)
        if dec.histograms.sum() == 0:
            break
    assert dec.histograms.sum() == 0 and dec.n_leaves == 1 and dec.ledger.total() == pytest.approx(0.05, rel=1e-12)
