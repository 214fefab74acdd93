"""Tests of privlib.attacks.naive_bayes: the kernel naive-Bayes adversary (Cormode et al. 2013, Sec. II)."""
import dataclasses

import numpy as np
import pandas as pd
import pytest

from privlib.attacks import kernel_conditionals, leaf_majority, naive_bayes
from privlib.partition import dp_kdtree, mondrian


def hand_decomposition():
    """Two leaves over x in 0..3 (one QI): [0,1] holds {a: 3, b: 1}, [2,3] holds {a: 0, b: 2}."""
    df = pd.DataFrame({"x": [0, 0, 1, 1, 2, 3], "s": ["a", "a", "a", "b", "b", "b"]})
    dec = mondrian(df, ["x"], "s", k=2, max_height=1, domain={"x": (0, 3)})
    return df, dec


def test_kernel_hand_worked():
    df, dec = hand_decomposition()
    assert dec.n_leaves == 2
    prior, (cond,) = kernel_conditionals(dec)
    assert np.allclose(prior, [3 / 6, 3 / 6])
    # a: 3 records spread over codes 0,1 -> 1.5 each; divided by Pr-count 3 -> 0.5, 0.5, 0, 0
    assert np.allclose(cond[:, 0], [0.5, 0.5, 0.0, 0.0])
    # b: 1 record over 0,1 (0.5 each) and 2 over 2,3 (1 each); / 3
    assert np.allclose(cond[:, 1], [1 / 6, 1 / 6, 1 / 3, 1 / 3])
    pred = naive_bayes(dec, df)
    # x in {0,1}: a: 0.5*0.5 = 0.25 vs b: 0.5/6 -> a with belief 0.75; x in {2,3}: b certain
    assert pred.predicted.tolist() == ["a", "a", "a", "a", "b", "b"]
    assert np.allclose(pred.confidence, [0.75] * 4 + [1.0] * 2)
    assert pred.accuracy == pytest.approx(5 / 6)
    assert np.allclose(pred.beliefs.sum(axis=1), 1.0)


def test_independent_brute_force_bayes():
    """Beliefs equal a direct (loop-based) evaluation of the source's formula."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"x": rng.integers(0, 8, 300), "y": rng.integers(0, 5, 300)})
    df["s"] = np.where(df["x"] + rng.integers(0, 3, 300) > 6, "hi", np.where(df["y"] > 2, "mid", "lo"))
    dec = mondrian(df, ["x", "y"], "s", k=10)
    pred = naive_bayes(dec, df, qi=["x", "y"], sa="s")
    S = len(dec.sa_values)
    joint = [np.zeros((8, S)), np.zeros((5, S))]
    for i in range(dec.n_leaves):
        for j in range(2):
            for u in range(dec.lower[i, j], dec.upper[i, j] + 1):
                joint[j][u] += dec.histograms[i] / (dec.upper[i, j] - dec.lower[i, j] + 1)
    tot = dec.histograms.sum(axis=0)
    for r in range(0, 300, 37):
        p = tot / tot.sum() * joint[0][df.x[r]] / tot * joint[1][df.y[r]] / tot
        assert np.allclose(pred.beliefs[r], p / p.sum())


def test_root_only_predicts_the_majority():
    """On the root alone every QI is uniform for every SA value: the attack is the baseline."""
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"x": rng.integers(0, 10, 200), "s": rng.choice(["a", "b", "c"], 200, p=[0.5, 0.3, 0.2])})
    dec = mondrian(df, ["x"], "s", k=1, max_height=0)
    pred = naive_bayes(dec, df)
    majority = df["s"].value_counts().idxmax()
    assert set(pred.predicted) == {majority}


def test_negative_noisy_counts_rounded_up():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"x": rng.integers(0, 16, 400), "s": rng.choice(["a", "b"], 400)})
    dec = dp_kdtree(df, ["x"], "s", eps=0.05, height=3, rng=3, domain={"x": (0, 15)}, sa_values=["a", "b"])
    assert (dec.histograms < 0).any()
    prior, conds = kernel_conditionals(dec)
    assert (prior >= 0).all() and all((c >= 0).all() for c in conds)
    pred = naive_bayes(dec, df)
    assert np.all(np.isfinite(pred.beliefs)) and np.allclose(pred.beliefs.sum(axis=1), 1)


def test_finer_partition_attacks_better():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 50, 3000)
    df = pd.DataFrame({"x": x, "s": np.where(x < 25, "a", "b")})
    df.loc[rng.random(3000) < 0.1, "s"] = "c"
    fine = naive_bayes(mondrian(df, ["x"], "s", k=5), df).accuracy
    coarse = naive_bayes(mondrian(df, ["x"], "s", k=3000), df).accuracy
    assert fine > 0.85 and coarse < 0.5


def test_bad_input():
    df, dec = hand_decomposition()
    with pytest.raises(TypeError, match="decomposition: expected a privlib Decomposition"):
        naive_bayes("tree", df)
    with pytest.raises(ValueError, match=r"qi: expected the decomposition's quasi-identifiers \['x'\]"):
        naive_bayes(dec, df.assign(y=0), qi=["y"])
    with pytest.raises(ValueError, match=r"sa: unknown column\(s\) \['t'\]"):
        naive_bayes(dec, df, sa="t")
    with pytest.raises(ValueError, match="outside the release's domain"):
        naive_bayes(dec, pd.DataFrame({"x": [7], "s": ["a"]}))
    with pytest.raises(TypeError, match="not orderable"):
        naive_bayes(dec, pd.DataFrame({"x": ["7"], "s": ["a"]}))


def test_leaf_majority_hand_worked():
    """Leaves [0,1] {a: 3, b: 1} and [2,3] {b: 2}: a for x <= 1, b above; ties -> first SA value."""
    df, dec = hand_decomposition()
    pred = leaf_majority(dec, df)
    assert pred.predicted.tolist() == ["a", "a", "a", "a", "b", "b"]
    assert np.allclose(pred.confidence, [0.75] * 4 + [1.0] * 2)
    assert pred.accuracy == pytest.approx(5 / 6)
    tie = pd.DataFrame({"x": [0, 1], "s": ["b", "a"]})
    assert leaf_majority(mondrian(tie, ["x"], "s", k=2), tie).predicted.tolist() == ["a", "a"]


def test_leaf_majority_equals_sum_of_leaf_maxima_on_exact_release():
    """On an exact release attacked on its own records, accuracy = sum of the leaves' largest counts / n."""
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"x": rng.integers(0, 30, 500), "y": rng.integers(0, 6, 500),
                       "s": rng.choice(list("abcd"), 500, p=[0.4, 0.3, 0.2, 0.1])})
    for k in (1, 5, 40):
        dec = mondrian(df, ["x", "y"], "s", k=k)
        assert leaf_majority(dec, df).accuracy == pytest.approx(dec.histograms.max(axis=1).sum() / len(df))


def test_leaf_majority_noisy_counts_clipped_and_empty_leaf_falls_back():
    df, dec = hand_decomposition()
    noisy = dataclasses.replace(dec, histograms=np.array([[-5.0, 1.0], [-1.0, -2.0]]))
    pred = leaf_majority(noisy, df)
    # leaf 1: clipped {0, 1} -> b; leaf 2 all zero -> the release's most frequent value (b)
    assert pred.predicted.tolist() == ["b"] * 6
    assert np.allclose(pred.beliefs.sum(axis=1), 1.0)
