"""Mondrian and the DP kd-tree on their fast paths -- records read as compact integer codes (views of
one-byte columns, small unsigned SA codes), the record path chosen from a sample when almost every
record is its own cell, more than 256 sensitive values, ties -- give the frozen reference
(``tests/reference_partition.py``) leaf for leaf; the kd-tree's requirements are read on the noisy
counts only."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privlib.partition import dp_kdtree, mondrian
from privlib.requirements import KAnonymity, LDiversity
from reference_partition import reference_dp_kdtree, reference_mondrian
from test_scale import same


def table(seed, n=4000, n_sa=3, dtype=np.int64):
    """Nine QIs: one of many codes with ties (``w``), eight narrow ones in ``dtype``."""
    gen = np.random.default_rng(seed)
    cols = {"w": gen.integers(0, n // 3, n)}                                 # about three records per code
    for j, width in enumerate((74, 7, 16, 7, 14, 6, 5, 2)):
        cols[f"n{j}"] = (gen.integers(0, width, n) + (3 if j == 0 else 0)).astype(dtype)
    cols["s"] = gen.integers(0, n_sa, n).astype(np.uint8 if n_sa <= 256 else np.uint16)
    return pd.DataFrame(cols)


QI = ["n0", "w", "n1", "n2", "n3", "n4", "n5", "n6", "n7"]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("dtype", [np.int64, np.uint8], ids=["int64", "uint8"])
def test_mondrian_fast_paths_leaf_for_leaf(seed, dtype):
    df = table(seed, dtype=dtype)
    for kw in (dict(k=5), dict(k=3, l=2), dict(k=4, t=0.3), dict(k=2, max_height=7)):
        dec = mondrian(df, QI, "s", **kw)
        assert dec.n_leaves > 20
        same(dec, reference_mondrian(df, QI, "s", **kw))


def test_mondrian_many_sensitive_values_and_duplicates():
    df = table(3, n=3000, n_sa=300)
    df = pd.concat([df, df.iloc[:1000]], ignore_index=True)                 # duplicated records: the cell path
    for kw in (dict(k=4), dict(k=3, l=3)):
        same(mondrian(df, QI, "s", **kw), reference_mondrian(df, QI, "s", **kw))


def test_record_path_chosen_from_a_sample_leaf_for_leaf():
    """A table large enough (300,000 records, almost all distinct) for the record path to be chosen
    from a sample of its rows, without counting its cells."""
    df = table(7, n=300_000, dtype=np.uint8)
    df["w"] = np.random.default_rng(8).permutation(300_000)              # every record its own cell
    for kw in (dict(k=3000), dict(k=5000, l=2)):
        dec = mondrian(df, QI, "s", **kw)
        assert dec.n_leaves > 20
        same(dec, reference_mondrian(df, QI, "s", **kw))


def test_input_columns_are_left_unchanged():
    df = table(4, dtype=np.uint8)
    before = df.copy()
    mondrian(df, QI, "s", k=3)
    dp_kdtree(df, QI, "s", eps=1.0, height=6, rng=0, domain={c: (0, 2000) for c in QI}, sa_values=[0, 1, 2])
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize("seed", [0, 1])
def test_kdtree_fast_paths_leaf_for_leaf(seed):
    df = table(seed, dtype=np.uint8)
    domain = {c: (0, int(df[c].max()) + 1) for c in QI}
    args = dict(eps=1.0, height=9, domain=domain, sa_values=[0, 1, 2])
    dec = dp_kdtree(df, QI, "s", rng=seed, **args)
    ref = reference_dp_kdtree(df, QI, "s", rng=seed, **args)
    same(dec, ref)
    assert list(dec.ledger) == list(ref["ledger"])


def test_kdtree_requirements_on_noisy_counts():
    df = table(5, n=2000, dtype=np.uint8)
    domain = {c: (0, int(df[c].max())) for c in QI}
    args = dict(eps=1e6, height=6, rng=1, domain=domain, sa_values=[0, 1, 2])   # noise ~ 0: counts exact
    plain = dp_kdtree(df, QI, "s", **args)
    dec = dp_kdtree(df, QI, "s", requirements=[KAnonymity(30), LDiversity(3)], **args)
    for f in ("lower", "upper", "histograms", "tree_threshold"):
        assert np.array_equal(getattr(dec, f), getattr(plain, f))            # the release is unchanged
    assert list(dec.ledger) == list(plain.ledger)
    counts = np.round(plain.histograms)
    want = (counts.sum(axis=1) >= 30) & ((counts > 0).sum(axis=1) >= 3)
    assert dec.params["requirements"] == (KAnonymity(30).label(), LDiversity(3).label())
    assert dec.params["requirements_met"] == tuple(bool(v) for v in want)
    assert 0 < sum(want) < dec.n_leaves
    noisy = dp_kdtree(df, QI, "s", eps=0.5, height=6, rng=1, domain=domain, sa_values=[0, 1, 2],
                      requirements=[KAnonymity(1)])
    clipped = np.maximum(noisy.histograms, 0).sum(axis=1)
    assert noisy.params["requirements_met"] == tuple(bool(v) for v in clipped >= 1)


def test_kdtree_bad_requirements():
    df = table(6, n=200, dtype=np.uint8)
    with pytest.raises(TypeError, match="requirements"):
        dp_kdtree(df, QI, "s", eps=1.0, height=2, rng=0, domain={c: (0, 700) for c in QI}, sa_values=[0, 1, 2],
                  requirements=["k=2"])
