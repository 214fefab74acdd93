"""The shortcuts of the book's hot paths give the answers of the general paths, bit for bit.

Each test runs a computation once through the shortcut and once through the general path (or an
independent public function), on small data: the one-scale sweep's shared attack, the leaf-majority
breach read per leaf, the remembered trees of repeated box sets, the block cut of equal-sized users,
the first-order encoding's codes read off the pattern entries, and the attacks' row blocks.
"""
import numpy as np
import pandas as pd
import pytest

from privlib import metrics
from privlib import reident as R
from privlib.attacks import leaf_majority
from privlib.experiments import spawn
from privlib.experiments import one_scale as osc
from privlib.experiments.empirical_privacy import Setup
from privlib.release import from_histogram

GEN = np.random.default_rng(11)
N = 120
DF = pd.DataFrame({"x": GEN.integers(0, 6, N), "y": GEN.integers(0, 3, N), "s": GEN.choice(list("abc"), N)})
SETUP = Setup("toy", DF, ("x", "y"), "s", {"x": (0, 5), "y": (0, 2)}, sa_values=("a", "b", "c"))
WL = {"d2": osc.definition2_workload(SETUP, n=40, rng=1),
      "qi": metrics.range_workload(DF, ["x", "y"], n=40, rng=1, domain=SETUP.domain)}


@pytest.mark.parametrize("family,value", [("dp-kdtree", 1.0), ("laplace", 0.5), ("mondrian-k", 4), ("swap", 0.5)])
def test_sweep_rows_equal_a_release_measured_alone(family, value):
    # the sweep attacks each release once and hands the prediction to both measures; measured alone
    # (the public measure and attack_measures, each with its own attack) the numbers are the same
    rows = osc.sweep(SETUP, WL, {family: [value]}, seed=5, n_seeds=2, attacks=True, errors=True, kdtree_height=3)
    for i, row in rows.iterrows():
        gen = np.random.default_rng(spawn(5, 2)[int(row["seed"])])
        dec = osc.release(SETUP, family, value, rng=gen, kdtree_height=3).decomposition
        alone = {**osc.attack_measures(SETUP, dec, rng=gen), **osc.measure(SETUP, WL, dec, errors=True)}
        for key, v in alone.items():
            if isinstance(v, np.ndarray):
                assert v.tobytes() == row[key].tobytes(), key
            else:
                assert v == row[key] or (v != v and row[key] != row[key]), key


@pytest.mark.parametrize("family,value", [("dp-kdtree", 0.1), ("laplace", 0.05), ("mondrian-k", 2), ("qwi", 0.8)])
def test_leaf_majority_breach_is_the_attacks(family, value):
    dec = osc.release(SETUP, family, value, rng=3, kdtree_height=3).decomposition
    lm = leaf_majority(dec, DF)
    expected = metrics.privacy_breach(lm).beta
    assert osc.attack_measures(SETUP, dec, rng=0)["beta_leaf-majority"] == expected


def test_repeated_box_sets_get_equal_trees_that_are_not_shared():
    cells = np.array([[x, y] for x in range(50) for y in range(40)])          # 2,000 cells: remembered
    kw = dict(qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[49, 39])
    first = from_histogram(cells, GEN.integers(0, 5, (len(cells), 2)), **kw)
    second = from_histogram(cells.copy(), GEN.integers(0, 5, (len(cells), 2)), **kw)
    for name in ("tree_dim", "tree_threshold", "tree_left", "tree_right", "tree_leaf", "tree_depth"):
        a, b = getattr(first, name), getattr(second, name)
        assert np.array_equal(a, b) and not np.shares_memory(a, b), name
    assert np.array_equal(first.assign_codes(cells), np.arange(len(cells)))
    # a box set that is not a partition still raises, remembered trees or not
    bad = cells.copy()
    bad[1] = bad[0]
    with pytest.raises(ValueError, match="histogram|overlap|gap|duplicate|cells"):
        from_histogram(bad, np.ones((len(cells), 2)), **kw)


def _records_key(rec):
    return (rec.user.tobytes(), rec.symbol.tobytes(), rec.category.tobytes(), rec.n_symbols, rec.n_categories,
            None if rec.row is None else rec.row.tobytes(), rec.counts.tobytes(), str(rec.symbol.dtype),
            list(rec.users))


def _observations(n_users=30, n_rows=60, n_char=4, seed=2):
    gen = np.random.default_rng(seed)
    cols = {f"c{j}": np.where(gen.random(n_users * n_rows) < 0.5, gen.integers(1, 4, n_users * n_rows), 0)
            for j in range(n_char)}
    return pd.DataFrame({"user": np.repeat(np.arange(n_users), n_rows), **cols})


@pytest.mark.parametrize("model", [R.first_order(), R.exhaustive()])
@pytest.mark.parametrize("n_obs", [5, 20, 40])
def test_cut_of_equal_users_is_the_encoding_at_that_size(model, n_obs):
    obs = _observations()
    base = R.encode_records(obs, model=model, n_obs=50 if model.kind == "exhaustive" else 60)   # equal blocks
    assert _records_key(R.cut(base, n_obs=n_obs)) == _records_key(R.encode_records(obs, model=model, n_obs=n_obs))
    # the general path (unequal users, no n_obs) cut to the same size: the same records and codes
    assert _records_key(R.cut(R.encode_records(obs, model=model), n_obs=n_obs)) == \
        _records_key(R.encode_records(obs, model=model, n_obs=n_obs))


def test_cut_refuses_too_large_a_size():
    base = R.encode_records(_observations(), model=R.exhaustive(), n_obs=50)
    with pytest.raises(ValueError, match="n_obs"):
        R.cut(base, n_obs=51)


def test_fresh_success_rate_does_not_depend_on_the_chunk():
    obs = _observations(n_users=70, n_rows=40, n_char=3, seed=4)
    rec = R.encode_records(obs, model=R.first_order(), n_obs=40)
    for sm in (0.0, 0.5):
        runs = [R.fresh_success_rate(rec, n_train=30, leakages=8, levels=[1, 2, 5, 70], rng=9, chunk=c, smoothing=sm,
                                     dense=True) for c in (3, 40, 512)]
        assert all(r.equals(runs[0]) for r in runs[1:])
    sparse = R.fresh_success_rate(rec, n_train=30, leakages=8, levels=[1, 2, 5, 70], rng=9, dense=False)
    assert sparse.equals(R.fresh_success_rate(rec, n_train=30, leakages=8, levels=[1, 2, 5, 70], rng=9, dense=True))


def test_information_with_many_sparse_pairs_matches_a_direct_count():
    # 3,000 users with 4 observations among some 3,600 bins: the (user, bin) keys span more than the
    # counting range, so the pairs are coded by hashing -- checked against pandas group counts
    gen = np.random.default_rng(8)
    n_u, n_o = 3000, 4
    obs = pd.DataFrame({"user": np.repeat(np.arange(n_u), n_o), "a": gen.integers(1, 61, n_u * n_o),
                        "b": gen.integers(1, 61, n_u * n_o)})
    rec = R.encode_records(obs, model=R.exhaustive())
    assert n_u * rec.n_symbols > max(4 * n_u * n_o, 1 << 20)
    pair = obs.groupby(["user", "a", "b"]).size().rename("c").reset_index()
    g = pair["c"] / n_o
    per_bin = g.groupby([pair["a"], pair["b"]]).transform("sum")
    expected = np.log2(n_u) + float((g * np.log2(g / per_bin)).sum()) / n_u
    assert R.hypothetical_information(rec).bits == pytest.approx(expected, rel=1e-12, abs=1e-12)
    util = R.category_prediction(rec, levels=[1, 2], rng=1, folds=2)
    assert util["success"].between(0, 1).all()
