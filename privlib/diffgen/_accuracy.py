"""Classification accuracy of a release (Section 5 of Mohammed et al. 2011): CA, BA and LA."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import check_columns, check_no_nan, check_nonempty
from ._encoding import _check_unique_used, _prepare
from ._pieces import PREDICTORS_DOC, TRAIN_TEST_DOC
from ._release import Release

#: The C4.5-style learner of :func:`accuracy`: an entropy tree whose leaves must hold at
#: least 0.3% of the (weighted) training records, standing in for C4.5's pruning.  The 0.3%
#: is the best of ``MIN_LEAF_GRID`` in 5-fold cross-validation on the raw Adult training
#: set (:func:`privlib.experiments.diffgen.select_min_leaf`; the chapter recomputes it).
TREE_PARAMS = {"criterion": "entropy", "min_weight_fraction_leaf": 0.003, "random_state": 0}


def _features(codes) -> np.ndarray:
    """Tree features: one column per predictor, the rank of the (generalized) value.

    Intervals are ranked by position; categorical values by their position in the
    taxonomy's depth-first leaf order, so siblings are adjacent and a threshold separates
    groups of sub-trees.  (C4.5 splits a categorical attribute into one branch per value;
    scikit-learn trees need numbers, and one-hot columns would multiply the features by
    about seven on releases that already have up to 10^5-10^6 rows.)
    """
    return np.asarray(codes, dtype=np.float32).T


def _tree(params=None):
    from sklearn.tree import DecisionTreeClassifier
    return DecisionTreeClassifier(**(TREE_PARAMS if params is None else {**TREE_PARAMS, **params}))


def _release_accuracy(release: Release, test_codes: np.ndarray, y_test: np.ndarray, params=None) -> float:
    if release.n_rows == 0:  # nothing released: predict the first class
        return float(np.mean(y_test == 0))
    distinct, inv = _distinct_rows(release, test_codes)
    pred = _histogram_predict(release, distinct, TREE_PARAMS if params is None else {**TREE_PARAMS, **params})
    if pred is None:
        X = _features(release.group_codes.T)
        clf = _tree(params).fit(X, release.class_codes, sample_weight=release.counts.astype(float))
        pred = clf.predict(_features(distinct.T))
    return float(np.mean((pred if inv is None else pred[inv]) == y_test))


#: Smallest release (rows) and smallest ``min_weight_fraction_leaf`` for which
#: :func:`_histogram_predict` grows the tree: below, scikit-learn is faster (same predictions).
_HIST_MIN_ROWS = 8_000
_HIST_MIN_LEAF = 0.001


@shared_doc(train_test=TRAIN_TEST_DOC)
def _distinct_rows(release: Release, test_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The distinct rows of ``test_codes`` (codes under the release's cuts) in increasing
    mixed-radix order, and the position of every test row among them (``None``: the rows are
    returned as they are -- the generalized domain is too large to index, or a code lies
    outside it).  The test records hold few distinct generalized rows: a tree predicts those
    and the predictions are spread back, the same as predicting every record.

    {{train_test}}
    >>> from privlib.diffgen import tds
    >>> rel = tds(train, ["job", "age"], "class", tax, k=5)
    >>> distinct, inv = _distinct_rows(rel, rel.encode(pd.concat([test, test])))
    >>> distinct.tolist(), inv.tolist()
    ([[0, 1], [1, 1]], [0, 1, 0, 1])
    """
    sizes = [len(c) if a.kind == "categorical" else len(c) - 1 for a, c in zip(release.attrs, release.cut_nodes)]
    dims = [j for j, n in enumerate(sizes) if n > 1]
    n_keys = 1
    for j in dims:
        n_keys *= sizes[j]
    if (n_keys > 1 << 22 or not len(test_codes) or test_codes.min() < 0
            or (test_codes >= np.array(sizes)).any()):
        return test_codes, None
    key = np.zeros(len(test_codes), dtype=np.int64)
    for j in dims:
        key = key * sizes[j] + test_codes[:, j]
    present = np.bincount(key, minlength=n_keys) > 0
    inv = (np.cumsum(present) - 1)[key]
    g = np.flatnonzero(present)
    distinct = np.zeros((len(g), len(sizes)), dtype=np.int64)
    for j in dims[::-1]:                                   # decode the keys (mixed radix)
        g, distinct[:, j] = np.divmod(g, sizes[j])
    return distinct, inv


def _histogram_predict(release: Release, test_codes: np.ndarray, params: dict) -> np.ndarray | None:
    """The predictions of ``_tree(params)`` trained on the release for ``test_codes``, grown from
    class-count histograms (``privlib.diffgen._tree``: the same tree); None when the parameters
    or the data are outside what it reproduces (then scikit-learn grows the tree)."""
    from ._tree import _grow_predict
    if set(params) - {"criterion", "min_weight_fraction_leaf", "random_state"} or params.get("criterion") != "entropy":
        return None
    mwf, seed = params.get("min_weight_fraction_leaf", 0.0), params.get("random_state")
    if (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 32
            or isinstance(mwf, bool) or not isinstance(mwf, (int, float, np.integer, np.floating))
            or not _HIST_MIN_LEAF <= mwf <= 0.5 or release.n_rows < _HIST_MIN_ROWS):
        return None
    counts = release.counts
    codes = release.group_codes
    if (counts.min() <= 0 or int(counts.sum()) >= 2 ** 53 or codes.min() < 0 or codes.max() >= 2 ** 24
            or test_codes.min(initial=0) < 0 or test_codes.max(initial=0) >= 2 ** 24):
        return None
    return _grow_predict(codes, release.class_codes, counts.astype(float), test_codes, len(release.classes),
                         float(mwf), int(seed))


def _test_labels(release, test):
    check_columns(test, [release.target], "target")
    return _test_classes(test, release.target, release.classes)


def _test_classes(test, target, classes):
    """Class index of every test record; a class outside the domain is an error (it could
    never be predicted, and counting it as a miss would silently lower the accuracy)."""
    check_no_nan(test, "test", [target])
    y = pd.Index(list(classes)).get_indexer(test[target].to_numpy())
    if (y < 0).any():
        raise ValueError(f"test: class value(s) {sorted(set(test[target][y < 0]), key=str)[:5]} of "
                         f"{target!r} are not in the class domain {list(classes)}; pass classes= with "
                         f"every class")
    return y


@shared_doc(train_test=TRAIN_TEST_DOC)
def accuracy(release: Release, test: pd.DataFrame, *, tree_params: dict | None = None) -> float:
    """Classification accuracy CA of a C4.5-style tree built on the release (Section 5).

    The tree (:data:`TREE_PARAMS`: entropy criterion, minimum leaf weight) is trained on the
    released rows with ``sample_weight`` = released counts; every generalized predictor is
    coded by its rank (see ``_features``).  On a release of many rows the same tree is grown
    from class-count histograms (``privlib.diffgen._tree``: scikit-learn's splits and
    tie-breaking, the same predictions, a few times faster).  The test records are generalized with the
    release's cuts (``release.encode`` / ``release.generalize``) and the fraction classified
    correctly is returned.  Works for DiffGen and TDS releases alike.

    Parameters
    ----------
    release : Release
        A release of :func:`diffgen` or :func:`tds`.
    test : pandas.DataFrame
        Raw test records holding the predictors and the class.
    tree_params : dict, optional
        Overrides of :data:`TREE_PARAMS` (scikit-learn ``DecisionTreeClassifier`` arguments).

    Returns
    -------
    float
        The fraction of test records classified correctly (CA).

    Raises
    ------
    TypeError, ValueError
        ``release`` not a Release, ``test`` not a non-empty DataFrame, a test class outside the
        release's class domain.

    {{train_test}}
    >>> from privlib.diffgen import tds
    >>> accuracy(tds(train, ["job", "age"], "class", tax, k=5), test)
    1.0
    """
    if not isinstance(release, Release):
        raise TypeError(f"release: expected a Release, got {type(release).__name__}")
    if not isinstance(test, pd.DataFrame):
        raise TypeError(f"test: expected a pandas DataFrame, got {type(test).__name__}")
    check_nonempty(test, "test")
    y = _test_labels(release, test)
    codes = release.encode(test)
    return _release_accuracy(release, codes, y, tree_params)


@shared_doc(predictors=PREDICTORS_DOC, train_test=TRAIN_TEST_DOC)
def raw_data_accuracy(train: pd.DataFrame, test: pd.DataFrame, predictors: Sequence[str], target: str,
                      taxonomies: Mapping, *, tree_params: dict | None = None) -> float:
    """BA, the baseline accuracy of Section 5: the learner of :func:`accuracy` on the raw data.

    Numerical values are used as they are, categorical leaves by their depth-first rank in
    the taxonomy.

    Parameters
    ----------
    train, test : pandas.DataFrame
        Raw training and test records.
    {{predictors}}
    tree_params : dict, optional
        Overrides of :data:`TREE_PARAMS`.

    Returns
    -------
    float
        The fraction of test records classified correctly.

    Raises
    ------
    TypeError, ValueError, privlib.hierarchy.HierarchyError
        A bad argument or a value outside its taxonomy (the message names it).

    {{train_test}}
    >>> raw_data_accuracy(train, test, ["job", "age"], "class", tax)
    1.0
    """
    prep = _prepare(train, predictors, target, taxonomies)
    tprep = _encode_test(prep, test)
    clf = _tree(tree_params).fit(_features(prep.raw), prep.y)
    return float(np.mean(clf.predict(_features(tprep[0])) == tprep[1]))


def lower_bound_accuracy(train: pd.DataFrame, test: pd.DataFrame, target: str) -> float:
    """LA, the lower bound of Section 5: accuracy with every predictor removed.

    Every test record is predicted as the training majority class (ties: the smallest label).

    Parameters
    ----------
    train, test : pandas.DataFrame
        Training and test records holding ``target``.
    target : str
        The class attribute.

    Returns
    -------
    float
        The share of test records of the training majority class.

    Raises
    ------
    TypeError, ValueError
        A frame that is not a non-empty DataFrame, a missing ``target`` or missing classes.

    Examples
    --------
    >>> import pandas as pd
    >>> lower_bound_accuracy(pd.DataFrame({"c": ["a", "a", "b"]}), pd.DataFrame({"c": ["a", "b", "b", "b"]}), "c")
    0.25
    """
    for name, d in (("train", train), ("test", test)):
        if not isinstance(d, pd.DataFrame):
            raise TypeError(f"{name}: expected a pandas DataFrame, got {type(d).__name__}")
        check_nonempty(d, name)
        check_columns(d, [target], "target")
        _check_unique_used(d, [target], name)
        check_no_nan(d, name, [target])
    counts = train[target].value_counts()
    counts = counts.iloc[np.argsort(counts.index.astype(str), kind="stable")]
    top = counts.index[np.argmax(counts.to_numpy())]
    return float(np.mean(test[target].to_numpy() == top))


def _encode_test(prep, test):
    if not isinstance(test, pd.DataFrame):
        raise TypeError(f"test: expected a pandas DataFrame, got {type(test).__name__}")
    check_nonempty(test, "test")
    check_columns(test, prep.predictors + [prep.target], "test columns")
    _check_unique_used(test, prep.predictors + [prep.target], "test")
    y = _test_classes(test, prep.target, prep.classes)
    raw = [a.encode(test[a.name], "test") for a in prep.attrs]
    return raw, y


