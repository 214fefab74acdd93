"""CA's learner grown from histograms against scikit-learn's tree, and a pinned Figure 3 sweep (its values computed before the evaluation was sped up)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from privlib import diffgen as dg
from privlib.data import load_adult
from privlib.experiments import diffgen as xdg
from privlib.hierarchy import Hierarchy


def _sklearn_accuracy(rel, test, params):
    """CA by scikit-learn's tree itself, trained on the release's public arrays."""
    clf = DecisionTreeClassifier(**{**dg.TREE_PARAMS, **params})
    clf.fit(rel.group_codes.astype(np.float32), rel.class_codes, sample_weight=rel.counts.astype(float))
    y = pd.Index(rel.classes).get_indexer(test["c"])
    return float(np.mean(clf.predict(rel.encode(test).astype(np.float32)) == y))


def _synthetic(seed, n):
    """Six categorical predictors of 4 to 9 values under one root each, a class that depends on
    two of them; small integer counts make exact ties between two features' splits frequent (a
    split whose left counts are another's right counts), which scikit-learn's random feature
    order breaks."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(4, 10, size=6)
    df = pd.DataFrame({f"x{j}": rng.integers(0, s, size=n) for j, s in enumerate(sizes)})
    p = 0.2 + 0.6 * ((df["x0"] + df["x1"]) % 3 == 0)
    df["c"] = np.where(rng.random(n) < p, "Y", "N")
    tax = {f"x{j}": Hierarchy.from_dict({"Any": [int(v) for v in range(s)]}) for j, s in enumerate(sizes)}
    return df, tax


@pytest.mark.parametrize("seed", range(6))
def test_accuracy_of_a_large_release_is_sklearn_trees(seed):
    """Releases of 8,000 rows and more get their learner grown from histograms: the CA is
    scikit-learn's, bit for bit, for several leaf weights and random states."""
    df, tax = _synthetic(seed, 30_000)
    train, test = df.iloc[:24_000], df.iloc[24_000:]
    pred = [f"x{j}" for j in range(6)]
    rel = dg.diffgen(train, pred, "c", tax, eps=2.0, h=6, classes=["N", "Y"], rng=seed)
    assert rel.n_rows >= 8_000
    for params in ({}, {"min_weight_fraction_leaf": 0.001, "random_state": seed},
                   {"min_weight_fraction_leaf": 0.02, "random_state": 7}):
        assert dg.accuracy(rel, test, tree_params=params) == _sklearn_accuracy(rel, test, params)


def test_accuracy_outside_the_histogram_tree_is_sklearn():
    """Learner options the histogram tree does not reproduce go to scikit-learn (same CA)."""
    df, tax = _synthetic(11, 30_000)
    train, test = df.iloc[:24_000], df.iloc[24_000:]
    pred = [f"x{j}" for j in range(6)]
    rel = dg.diffgen(train, pred, "c", tax, eps=2.0, h=6, classes=["N", "Y"], rng=1)
    for params in ({"max_depth": 4}, {"criterion": "gini"}, {"min_weight_fraction_leaf": 0.0}):
        assert dg.accuracy(rel, test, tree_params=params) == _sklearn_accuracy(rel, test, params)


@pytest.fixture(scope="module")
def adult():
    train = load_adult(split="train").iloc[:8000]
    test = load_adult(split="test").iloc[:3000]
    tax = xdg.adult_taxonomies(xdg.ADULT_PREDICTORS, domains=xdg.ADULT_DOMAINS)
    return train, test, tax


def test_sweep_pinned(adult):
    """A small Figure 3 sweep (Adult's first 8,000 training and 3,000 test records): every CA,
    as a count of correctly classified test records, and every released row count, as computed
    before the releases and their trees were sped up (commit 01b267e).  Releases of h = 15 have
    10^4 to 10^5 rows, so the histogram tree grows their learners."""
    train, test, tax = adult
    out = xdg.sweep(train, test, xdg.ADULT_PREDICTORS, "income", tax, eps_values=[0.5, 2.0], h_values=[6, 15],
                    utilities=("max", "infogain"), runs=2, rng=2011, classes=xdg.ADULT_CLASSES,
                    tree_params={"min_weight_fraction_leaf": 0.003})
    hits = [2388, 2265, 2289, 2120, 2450, 2403, 2446, 2451, 2276, 2330, 2356, 2253, 2259, 2260, 2293, 2380]
    rows = [96, 71, 40492, 100917, 226, 123, 37514, 74749, 47, 74, 30410, 474, 288, 112, 3457, 9833]
    assert (out["ca"] * 3000).round().astype(int).tolist() == hits
    assert out["ca"].tolist() == [h / 3000 for h in hits]
    assert out["rows"].tolist() == rows
