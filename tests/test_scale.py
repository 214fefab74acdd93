"""Census scale: Mondrian and the DP kd-tree, rewritten to run on the distinct (QI codes, SA) rows
weighted by their multiplicities, give the decomposition of the frozen reference
(``tests/reference_partition.py``, the builders before the rewrite) leaf for leaf, on Adult and
on a 10^5-record synthetic Adult-like table (every column drawn from Adult's marginal)."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from privlib.experiments import empirical_privacy as ep
from privlib.partition import dp_kdtree, mondrian
from reference_partition import reference_dp_kdtree, reference_mondrian

FIELDS = ("lower", "upper", "histograms", "tree_dim", "tree_threshold", "tree_left", "tree_right", "tree_depth")


def synthetic(df, columns, n, seed):
    gen = np.random.default_rng(seed)
    out = {}
    for c in columns:
        vals, counts = np.unique(df[c].to_numpy(), return_counts=True)
        out[c] = vals[gen.choice(vals.size, size=n, p=counts / counts.sum())]
    return pd.DataFrame(out)


@pytest.fixture(scope="module")
def setup():
    return ep.adult_setup()


@pytest.fixture(scope="module", params=["adult", "synthetic 10^5"])
def data(request, setup):
    if request.param == "adult":
        return setup.df
    return synthetic(setup.df, list(setup.qi) + [setup.sa], 100_000, 7)


def same(dec, ref):
    for f in FIELDS:
        got, want = getattr(dec, f), ref[f]
        assert got.shape == want.shape, f
        assert np.array_equal(got, want), f
    assert dec.histograms.dtype == ref["histograms"].dtype


MONDRIAN_CASES = [dict(k=10), dict(k=5, domain="setup"), dict(k=3, l=3), dict(k=4, l=2, l_kind="frequency"),
                  dict(k=5, t=0.2), dict(k=5, t=0.15, t_rule="source"), dict(k=2, max_height=5),
                  dict(k=6, t=0.3, distance="equal", l=2)]


@pytest.mark.parametrize("kw", MONDRIAN_CASES, ids=lambda kw: ", ".join(f"{a}={b}" for a, b in kw.items()))
def test_mondrian_leaf_for_leaf(setup, data, kw):
    kw = {**kw, "domain": setup.domain} if kw.get("domain") == "setup" else kw
    dec = mondrian(data, list(setup.qi), setup.sa, **kw)
    ref = reference_mondrian(data, list(setup.qi), setup.sa, **kw)
    assert dec.n_leaves > 1
    same(dec, ref)
    assert dec.counts.sum() == len(data)


@pytest.mark.parametrize("kw", [dict(eps=1.0, height=10), dict(eps=0.5, height=6, median_fraction=0.5),
                                dict(eps=2.0, height=12, median_fraction=0.0), dict(eps=1.0, height=0)],
                         ids=lambda kw: ", ".join(f"{a}={b}" for a, b in kw.items()))
@pytest.mark.parametrize("seed", [0, 1])
def test_dp_kdtree_leaf_for_leaf(setup, data, kw, seed):
    args = dict(domain=setup.domain, sa_values=setup.sa_values, **kw)
    dec = dp_kdtree(data, list(setup.qi), setup.sa, rng=seed, **args)
    ref = reference_dp_kdtree(data, list(setup.qi), setup.sa, rng=seed, **args)
    same(dec, ref)
    assert list(dec.ledger) == list(ref["ledger"])


def test_wide_codes_leaf_for_leaf():
    """Codes too wide for one combined key (each QI compressed to ranks, then rows sorted)."""
    gen = np.random.default_rng(0)
    df = pd.DataFrame({"a": gen.integers(0, 2 ** 61, 3000), "b": gen.integers(-5, 5, 3000),
                       "s": gen.integers(0, 3, 3000)})
    df.iloc[:1000] = df.iloc[1000:2000].to_numpy()                # duplicated rows: weights > 1
    for kw in (dict(k=2), dict(k=3, t=0.3), dict(k=2, l=3)):
        same(mondrian(df, ["a", "b"], "s", **kw), reference_mondrian(df, ["a", "b"], "s", **kw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # no public domain / SA values: the warning is tested elsewhere
        same(dp_kdtree(df, ["a", "b"], "s", eps=1.0, height=12, rng=3),
             reference_dp_kdtree(df, ["a", "b"], "s", eps=1.0, height=12, rng=3))


@pytest.mark.parametrize("dup", [False, True], ids=["records", "cells"])
def test_wide_and_narrow_quasi_identifiers_leaf_for_leaf(dup):
    """Two QIs of many codes (a sorted layout each, the second by row id), two of few codes (count
    tables); on the records (almost every record its own cell) and on weighted cells."""
    gen = np.random.default_rng(5)
    n = 6000
    df = pd.DataFrame({"w1": gen.integers(0, 5000, n), "n1": gen.integers(0, 7, n), "w2": gen.integers(0, 900, n),
                       "n2": gen.integers(3, 40, n), "s": gen.integers(0, 4, n)})
    if dup:
        df = df.iloc[np.repeat(np.arange(n // 4), 4)].reset_index(drop=True)
    qi = ["n1", "w1", "n2", "w2"]
    for kw in (dict(k=2), dict(k=5, l=2), dict(k=3, t=0.3), dict(k=4, t=0.2, t_rule="source"), dict(k=3, max_height=6),
               dict(k=2, l=2, l_kind="frequency")):
        dec = mondrian(df, qi, "s", **kw)
        assert dec.n_leaves > 10
        same(dec, reference_mondrian(df, qi, "s", **kw))


@pytest.mark.parametrize("max_cells", [40, 1500])
def test_top_levels_from_counts_equal_in_memory(max_cells):
    """privlib.scale.dask_mondrian on a pandas frame with more distinct cells than ``max_cells``:
    the top levels grown from per-node counts, the subtrees on their cells; node for node."""
    from privlib import scale
    gen = np.random.default_rng(2)
    n = 6000
    df = pd.DataFrame({"a": gen.integers(0, 50, n), "b": gen.integers(7, 3000, n), "c": gen.integers(0, 3, n),
                       "s": gen.choice(list("pqrs"), n)})
    for kw in (dict(k=4), dict(k=3, l=2, t=0.4), dict(k=3, t=0.2, t_rule="source"), dict(k=2, max_height=7)):
        dec, ref = scale.dask_mondrian(df, ["a", "b", "c"], "s", max_cells=max_cells, **kw), mondrian(df, ["a", "b", "c"], "s", **kw)
        for f in FIELDS + ("tree_leaf",):
            assert np.array_equal(getattr(dec, f), getattr(ref, f)), f
        assert dec.params == ref.params


@pytest.mark.parametrize("dup", [False, True], ids=["distinct records", "shared cells"])
def test_top_levels_read_each_partition_twice(dup):
    """dask_mondrian's top levels on a Dask frame: each partition is read twice in all -- once to
    count the distinct cells before anything is built, once into arrays kept where it lives
    (codes, SA indices, nodes) -- however many levels are grown from them and batches of cells
    brought back.  Node for node the in-memory tree, whether almost every record is its own cell
    (the cells bounded by the records) or the records share cells (counted where they live)."""
    dd = pytest.importorskip("dask.dataframe")
    import dask

    from privlib import scale
    gen = np.random.default_rng(5)
    n = 20_000 if dup else 4000
    df = pd.DataFrame({"a": gen.integers(0, 40, n), "w": gen.integers(-9, 40 if dup else 5000, n).astype(np.int32),
                       "s": gen.choice(list("xyz"), n)})
    reads = [0, 0, 0]

    def part(i):
        reads[i] += 1
        return df.iloc[i * n // 3:(i + 1) * n // 3]

    ddf = dd.from_map(part, range(3), meta=df.iloc[:0])
    with dask.config.set(scheduler="sync"):
        dec = scale.dask_mondrian(ddf, ["a", "w"], "s", k=3, l=2, max_cells=2000 if dup else n // 5)
    ref = mondrian(df, ["a", "w"], "s", k=3, l=2)
    for f in FIELDS + ("tree_leaf",):
        assert np.array_equal(getattr(dec, f), getattr(ref, f)), f
    assert ref.height > 5 and reads == [2, 2, 2]


@pytest.mark.parametrize("change, match", [
    (lambda p: p.assign(s=p["s"].where(p.index != p.index[0], "q")), "column 's' has a value not among the 3 counted.*'q'"),
    (lambda p: p.assign(a=p["a"] + 100), r"column 'a' has values outside \[0, 39\]"),
    (lambda p: p.assign(w=p["w"] - 100), r"column 'w' has values outside \[-9, 4999\]")],
    ids=["new SA value", "QI above", "QI below"])
def test_top_levels_refuse_data_changed_between_passes(change, match):
    """The records read into the workers' arrays are checked against the counts the tree is
    planned from: a code outside the counted range or an SA value not counted raises, naming the
    column (never a wrapped code or a record silently dropped)."""
    dd = pytest.importorskip("dask.dataframe")
    import dask

    from privlib import scale
    gen = np.random.default_rng(5)
    n = 3000
    df = pd.DataFrame({"a": gen.integers(0, 40, n), "w": gen.integers(-9, 5000, n).astype(np.int32),
                       "s": gen.choice(list("xyz"), n)})
    df.loc[0, ["a", "w"]] = [39, 4999]
    df.loc[1, ["a", "w"]] = [0, -9]
    reads = [0, 0]

    def part(i):
        reads[i] += 1
        p = df.iloc[i * n // 2:(i + 1) * n // 2]
        return change(p) if reads[i] > 1 and i == 1 else p

    ddf = dd.from_map(part, range(2), meta=df.iloc[:0])
    with dask.config.set(scheduler="sync"), pytest.raises(ValueError, match=match):
        scale.dask_mondrian(ddf, ["a", "w"], "s", k=3, max_cells=n // 4)
