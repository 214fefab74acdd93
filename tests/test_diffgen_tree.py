"""CA's learner grown from histograms (privlib.diffgen._tree) against scikit-learn's tree, and a
pinned Figure 3 sweep (its values computed before the evaluation was sped up)."""
import numpy as np
import pytest

from privlib.data import load_adult
from privlib.diffgen import _accuracy
from privlib.diffgen import _tree as tr
from privlib.diffgen._accuracy import _features, _release_accuracy, _tree
from privlib.experiments import diffgen as xdg


def _sklearn_predict(X, y, w, Xt, mwf, seed):
    clf = _tree({"min_weight_fraction_leaf": mwf, "random_state": seed})
    clf.fit(_features(X.T), y, sample_weight=w)
    return clf.predict(_features(Xt.T))


def _case(rng, n, d, n_classes, max_code, max_weight):
    X = np.column_stack([rng.integers(0, int(rng.integers(1, max_code + 1)), size=n) for _ in range(d)])
    y = rng.integers(0, n_classes, size=n)
    w = rng.integers(1, max_weight + 1, size=n).astype(float)
    Xt = np.column_stack([rng.integers(0, max_code + 2, size=300) for _ in range(d)])   # unseen codes too
    return X, y, w, Xt


@pytest.mark.parametrize("seed", range(12))
def test_histogram_tree_predicts_as_sklearn(seed, monkeypatch):
    """Small integer weights make exact ties between features frequent (a split whose left counts
    are another's right counts): scikit-learn's random feature order decides them, replayed here."""
    walks = []
    orig = tr._Grower._walk
    monkeypatch.setattr(tr._Grower, "_walk", lambda self: (walks.append(1), orig(self))[1])
    rng = np.random.default_rng(seed)
    for _ in range(6):
        X, y, w, Xt = _case(rng, int(rng.integers(20, 400)), int(rng.integers(1, 7)), int(rng.integers(1, 4)),
                            int(rng.integers(2, 8)), int(rng.integers(1, 4)))
        mwf = float(rng.choice([0.0, 0.001, 0.003, 0.02, 0.1]))
        rs = int(rng.integers(0, 5))
        got = tr._grow_predict(X, y, w, Xt, 3, mwf, rs)
        assert np.array_equal(got, _sklearn_predict(X, y, w, Xt, mwf, rs))
        assert np.array_equal(tr._grow_predict(X, y, w, X, 3, mwf, rs), _sklearn_predict(X, y, w, X, mwf, rs))
    if seed == 0:
        assert walks, "expected at least one exact tie between features (the replayed feature order)"


def test_histogram_tree_edge_cases():
    X = np.array([[0, 1], [0, 1], [0, 1]])
    w = np.ones(3)
    Xt = np.array([[0, 0], [1, 2]])
    # constant features: the root is a leaf; one class present; a tie of class weights -> class 0
    assert tr._grow_predict(X, np.array([1, 1, 1]), w, Xt, 2, 0.0, 0).tolist() == [1, 1]
    assert tr._grow_predict(X, np.array([0, 1, 1]), np.array([2.0, 1.0, 1.0]), Xt, 2, 0.0, 0).tolist() == [0, 0]
    # too many codes for histograms: None (scikit-learn grows the tree)
    big = np.array([[0], [tr.MAX_CODES + 5]])
    assert tr._grow_predict(big, np.array([0, 1]), np.ones(2), big, 2, 0.0, 0) is None
    # the exact entropy is scikit-learn's formula
    assert tr._entropy_exact([1.0, 1.0], 2.0) == 1.0 and tr._entropy_exact([0.0, 3.0], 3.0) == 0.0


@pytest.fixture(scope="module")
def adult():
    train = load_adult(split="train").iloc[:8000]
    test = load_adult(split="test").iloc[:3000]
    tax = xdg.adult_taxonomies(xdg.ADULT_PREDICTORS, domains=xdg.ADULT_DOMAINS)
    return train, test, tax


def test_release_accuracy_either_engine(adult, monkeypatch):
    """The histogram tree and scikit-learn give the same CA on DiffGen releases, whichever
    grows it; parameters outside the histogram tree's reach go to scikit-learn."""
    from privlib.diffgen._accuracy import _encode_test
    from privlib.diffgen._diffgen import _diffgen
    from privlib.diffgen._encoding import _prepare
    from privlib.diffgen._release import _code_under_cut
    train, test, tax = adult
    prep = _prepare(train, xdg.ADULT_PREDICTORS, "income", tax, classes=xdg.ADULT_CLASSES)
    raw, y = _encode_test(prep, test)
    for i, (eps, h) in enumerate([(0.5, 8), (1.0, 12), (2.0, 10)]):
        rel = _diffgen(prep, eps, h, "max", np.random.default_rng(i))
        codes = np.column_stack([_code_under_cut(a, raw[j], rel.cut_nodes[j]) for j, a in enumerate(prep.attrs)])
        for params in (None, {"min_weight_fraction_leaf": 0.01}, {"min_weight_fraction_leaf": 0.002, "random_state": 3}):
            monkeypatch.setattr(_accuracy, "_HIST_MIN_ROWS", 0)
            monkeypatch.setattr(_accuracy, "_HIST_MIN_LEAF", 0.0)
            fast = _release_accuracy(rel, codes, y, params)
            monkeypatch.setattr(_accuracy, "_HIST_MIN_ROWS", 10 ** 12)
            assert fast == _release_accuracy(rel, codes, y, params)
        monkeypatch.setattr(_accuracy, "_HIST_MIN_ROWS", 0)
        assert _accuracy._histogram_predict(rel, codes, {**_accuracy.TREE_PARAMS, "max_depth": 3}) is None
        assert _accuracy._histogram_predict(rel, codes, {**_accuracy.TREE_PARAMS, "criterion": "gini"}) is None
        assert _accuracy._histogram_predict(rel, codes, {**_accuracy.TREE_PARAMS, "random_state": None}) is None


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
