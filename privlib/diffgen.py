"""DiffGen: differentially private data release for classification (Mohammed et al. 2011).

DiffGen (Algorithm 1 of Mohammed, Chen, Fung & Yu, KDD 2011) releases a whole table under
eps-differential privacy.  Starting from the most general state (every categorical value at
the root of its taxonomy tree, every numerical value in one interval spanning its domain) it
performs ``h`` specializations, each chosen by the exponential mechanism, then publishes the
count of every equivalence group (generalized predictor values x class) with Laplace noise.

Public functions
================
:func:`diffgen`                Algorithm 1; returns a :class:`Release`.
:func:`tds`                    Top-down specialization for k-anonymity (Fung, Wang & Yu 2005),
                               the baseline of Figure 4; also returns a :class:`Release`.
                               ``qid=`` sets its quasi-identifier (:data:`TDS_TOPN_QIDS`).
:func:`accuracy`               C4.5-style tree trained on a release, tested on generalized records.
:func:`baseline_accuracy`      BA: the same learner on the raw data.
:func:`lower_bound_accuracy`   LA: all predictors removed (majority class of the training data).
:func:`apply_cut`              generalize a table to a given cut (Table 1.b).
:func:`contingency_table`      counts over every combination of cut values (Table 1.c, 1.d).
:func:`partition_tree`         the tree of partitions of Figure 2 / Example 3, built literally.
:func:`sweep`, :func:`cross_validate`   replicated experiments (Figures 3 and 4), optionally
                               on two processes, identical results for any number of workers
                               (``cross_validate(..., tds={name: (k, qid)})`` runs several TDS
                               set-ups on the same folds; the table is encoded once).
:func:`blow_up`, :func:`scalability`   the scalability data and timings of Figure 5.
:func:`adult_taxonomies`       taxonomy trees and numerical domains for Adult: the source's
                               trees (Fung, Wang & Yu 2007, ``hierarchy_set="tkde2007"``, the
                               default) or the book's (``"book"``); public domains:
                               :data:`ADULT_DOMAINS`.
:func:`total_epsilon`          add up a budget ledger (:func:`privlib.accounting.total_epsilon`).
:func:`held_out_best`          "the highest point" of a curve of means, leave-one-run-out.

Taxonomies
==========
``taxonomies`` maps *every* predictor either to a :class:`~privlib.hierarchy.Hierarchy`
(categorical predictor, specialized down its taxonomy tree) or to a pair ``(low, high)``:
a numerical predictor whose public domain is the half-open interval ``[low, high)``; it
starts as that one interval and is split dynamically (Section 4.2, "Split Value").

Implementation (Section 4.3)
============================
The cut of DiffGen is global (single-dimensional): the records generalized to a cut value
``v`` are the same whatever the other attributes' cuts are, so the scores of ``v`` and of
its children depend only on the class counts of ``v``'s records per child (and, for a
numerical value, per distinct data value).  We collect those counts once, in one pass over
the data: per attribute a table ``value x class`` whose rows are in depth-first leaf order
(categorical; the records of any taxonomy node are then a contiguous block of rows -- the
"link" from the cut value to its records) or in increasing value order (numerical; the
records of an interval are a contiguous block too).  Cumulative sums over these tables give
every count the source collects while splitting a partition (``|D_c|, |D_g|, |D_c^cls|,
|D_g^cls|``) and every split score of an interval in O(number of distinct values), so the
loop of Lines 6-11 never touches a record.  The leaf partitions of the partition tree
(Figure 2) are formed once at the end (Line 12) with one mixed-radix group key per record and
a ``bincount``.  Total cost O(|A^pr| |D| log |D|) for the sort, O(|A^pr| |D|) for Line 12, and
O(h (|cut| + distinct values)) for the loop.  :func:`partition_tree` is the literal
partition tree with ``Link_v`` lists (a reference implementation for small data, used in
the tests to cross-check the fast one).
"""
from __future__ import annotations

import math
import numbers
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validation import (as_generator, check_columns, check_epsilon, check_in, check_int,
                          check_finite, check_no_nan, check_nonempty, check_probability,
                          warn_privacy_leak)
from .accounting import Ledger, LedgerEntry, total_epsilon
from .hierarchy import Hierarchy, HierarchyError
from ._progress import check_progress, progress_bar
from .mechanisms import exponential, laplace_scale

__all__ = [
    "Specialization",
    "Release",
    "diffgen",
    "tds",
    "accuracy",
    "baseline_accuracy",
    "lower_bound_accuracy",
    "apply_cut",
    "contingency_table",
    "partition_tree",
    "sweep",
    "cross_validate",
    "blow_up",
    "scalability",
    "adult_taxonomies",
    "total_epsilon",
    "max_score",
    "infogain_score",
    "TREE_PARAMS",
    "select_min_leaf",
    "ADULT_PREDICTORS",
    "TDS_TOPN_QIDS",
    "held_out_best",
    "ADULT_DOMAINS",
    "ADULT_CLASSES",
    "MAX_H",
]

ADULT_PREDICTORS = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
    "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
]

#: The quasi-identifiers ("TopN": the N attributes most important for classification) of the
#: Adult experiments of Fung, Wang & Yu's TDS, as listed in their published experiment
#: configuration (github.com/McGill-DMaS/Privacy-TDS, ``exp/erTopN/adultRU0.hchy``; that file
#: also lists one QID of all 14 attributes with k = 5).  Attributes outside the QID are
#: released unchanged by TDS.
TDS_TOPN_QIDS = {
    5: ("age", "education_num", "marital_status", "relationship", "capital_gain"),
    7: ("age", "education_num", "marital_status", "relationship", "sex", "capital_gain", "hours_per_week"),
    9: ("age", "education", "education_num", "marital_status", "occupation", "relationship", "sex",
        "capital_gain", "hours_per_week"),
}

#: The C4.5-style learner of :func:`accuracy`: an entropy tree whose leaves must hold at
#: least 0.3% of the (weighted) training records, standing in for C4.5's pruning.  The 0.3%
#: is the best of :data:`MIN_LEAF_GRID` in 5-fold cross-validation on the raw Adult training
#: set (:func:`select_min_leaf`; the chapter recomputes it).
TREE_PARAMS = {"criterion": "entropy", "min_weight_fraction_leaf": 0.003, "random_state": 0}
MIN_LEAF_GRID = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2)

#: Public domains ``[low, high)`` of the numerical Adult predictors, from the experimental
#: set-up of Fung, Wang & Yu, "Anonymizing classification data for privacy preservation",
#: IEEE TKDE 19(5), 2007 (the taxonomy files used by DiffGen's experiments): age 15-95,
#: fnlwgt 0-1,500,000, education-num 1-20, capital-gain 0-100,000, capital-loss 0-5,000,
#: hours-per-week 1-100.  They are not derived from the data.
ADULT_DOMAINS = {
    "age": (15.0, 95.0),
    "fnlwgt": (0.0, 1_500_000.0),
    "education_num": (1.0, 20.0),
    "capital_gain": (0.0, 100_000.0),
    "capital_loss": (0.0, 5_000.0),
    "hours_per_week": (1.0, 100.0),
}
#: The public class domain of Adult (``data/adult/adult.names``: ">50K, <=50K").
ADULT_CLASSES = ("<=50K", ">50K")

#: Largest number of specializations :func:`diffgen` accepts.  The loop of Lines 6-11 costs
#: O(h x candidates) and every specialization multiplies the generalized domain, whose every
#: cell gets Lap(2/eps) noise; the source uses h <= 16.
MAX_H = 1000

#: Line 12 materializes every cell of the generalized domain up to this many cells; above it,
#: the noise of the empty cells is drawn sparsely (same distribution, see ``_noisy_counts``).
DENSE_CELLS = 1 << 22
#: Refuse to release more noisy rows than this (the noise would swamp the data anyway).
MAX_RELEASED_ROWS = 20_000_000


@dataclass(frozen=True)
class Specialization:
    """One specialization ``v -> child(v)`` (Algorithm 1, Line 8)."""

    iteration: int
    attribute: str
    value: str
    children: tuple
    split: float | None
    score: float


# ============================================================================ attributes
class _Categorical:
    """A taxonomy tree flattened to arrays, leaves in depth-first order (contiguous blocks)."""

    kind = "categorical"

    def __init__(self, name: str, hierarchy: Hierarchy):
        self.name = name
        self.hierarchy = hierarchy
        nodes, children, lo, hi = [], [], [], []
        leaves: list = []

        def visit(node):  # iterative would be longer; taxonomy trees are shallow
            i = len(nodes)
            nodes.append(node)
            children.append([])
            lo.append(len(leaves))
            hi.append(None)
            ch = hierarchy.children(node)
            if not ch:
                leaves.append(node)
            for c in ch:
                children[i].append(visit(c))
            hi[i] = len(leaves)
            return i

        visit(hierarchy.root)
        self.nodes = nodes
        self.labels = [str(n) for n in nodes]
        self.children = [tuple(c) for c in children]
        self.lo = np.asarray(lo, dtype=np.int64)
        self.hi = np.asarray(hi, dtype=np.int64)
        self.leaves = leaves
        self.leaf_index = pd.Index(leaves)
        self.n_leaves = len(leaves)
        self.n_internal = sum(1 for c in children if c)
        self.node_of_label = {n: i for i, n in enumerate(nodes)}

    def encode(self, values, what: str) -> np.ndarray:
        idx = self.leaf_index.get_indexer(pd.Series(values).to_numpy())
        if (idx < 0).any():
            check_no_nan(pd.DataFrame({self.name: pd.Series(values)}), what)
            try:
                self.hierarchy.check_values(pd.Series(values)[idx < 0])
            except HierarchyError as exc:
                raise HierarchyError(f"{what}: {exc}") from None
            raise HierarchyError(f"{what}: values of attribute {self.name!r} not in its taxonomy")  # pragma: no cover
        return idx.astype(np.int64)

    def cut_lookup(self, cut_nodes) -> np.ndarray:
        """Array leaf position -> index of the cut value above it."""
        out = np.full(self.n_leaves, -1, dtype=np.int64)
        for j, node in enumerate(cut_nodes):
            out[self.lo[node]:self.hi[node]] = j
        return out


class _Numerical:
    """A numerical predictor with public domain ``[low, high)``."""

    kind = "numerical"

    def __init__(self, name: str, low: float, high: float):
        self.name = name
        self.low = float(low)
        self.high = float(high)

    def encode(self, values, what: str) -> np.ndarray:
        values = pd.Series(values)
        if not (pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_complex_dtype(values)):
            raise TypeError(f"{what}: column {self.name!r} has a numerical domain in taxonomies but holds "
                            f"non-numeric values of dtype {values.dtype}")
        if values.dtype.kind in "iu":  # plain numpy integers: no missing values
            xi = values.to_numpy()
            if len(xi) and (xi.max() > 2 ** 53 or (xi.dtype.kind == "i" and xi.min() < -2 ** 53)):
                raise ValueError(f"{what}: integer values of {self.name!r} beyond 2**53 in magnitude (got "
                                 f"{max(abs(int(xi.min())), int(xi.max()))}) cannot be split exactly in "
                                 f"floating point; rescale them")
            x = xi.astype(float)
        else:
            x = values.to_numpy(dtype=float, na_value=np.nan)
        bad = ~((x >= self.low) & (x < self.high))
        if bad.any():
            check_no_nan(pd.DataFrame({self.name: x}), what)
            shown = values[bad].unique()[:5].tolist()
            raise HierarchyError(
                f"{what}: value(s) {shown} of numerical attribute {self.name!r} outside its public domain "
                f"[{_fmt(self.low)}, {_fmt(self.high)}) given in taxonomies[{self.name!r}]")
        return x


def _fmt(x: float) -> str:
    x = float(x)
    if x.is_integer():
        return str(int(x))
    return f"{x:.2f}"


def _interval_label(lo: float, hi: float) -> str:
    return f"[{_fmt(lo)}-{_fmt(hi)})"


def _make_attrs(df, predictors, taxonomies) -> list:
    if not isinstance(taxonomies, dict):
        raise TypeError(f"taxonomies: expected a dict attribute -> Hierarchy or (low, high), "
                        f"got {type(taxonomies).__name__}")
    attrs = []
    for a in predictors:
        if a not in taxonomies:
            raise ValueError(
                f"taxonomies: predictor {a!r} has no taxonomy; give a Hierarchy (categorical) or a "
                f"numerical domain (low, high)")
        t = taxonomies[a]
        if isinstance(t, Hierarchy):
            attrs.append(_Categorical(a, t))
        elif (isinstance(t, (tuple, list)) and len(t) == 2
              and all(isinstance(v, (numbers.Real, np.integer, np.floating)) and not isinstance(v, bool)
                      for v in t)):
            lo, hi = float(t[0]), float(t[1])
            if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi and _splittable(lo, hi)):
                raise ValueError(f"taxonomies[{a!r}]: expected a numerical domain (low, high) with "
                                 f"low < high, got {t!r}")
            if not pd.api.types.is_numeric_dtype(df[a]):
                raise TypeError(f"taxonomies[{a!r}]: numerical domain given for the non-numeric column {a!r}")
            attrs.append(_Numerical(a, lo, hi))
        else:
            raise TypeError(f"taxonomies[{a!r}]: expected a Hierarchy or a pair (low, high), "
                            f"got {type(t).__name__} {t!r}")
    return attrs


# ============================================================================ preparation
@dataclass
class _Prepared:
    """A training table encoded once: per-attribute codes and value x class count tables."""

    predictors: list
    target: str
    attrs: list
    classes: np.ndarray
    y: np.ndarray
    raw: list            # per attribute: leaf positions (categorical) or float values (numerical)
    vals: list           # numerical: sorted distinct values; categorical: None
    cum: list            # per attribute: cumulative (rows + 1) x K class counts
    n: int = 0

    @property
    def K(self) -> int:
        return len(self.classes)


def _check_target(df, target):
    if isinstance(target, (list, tuple, set, dict, np.ndarray, pd.Index)):
        raise TypeError(f"target: expected one column name, got {type(target).__name__} {target!r}")
    col = df[target]
    if pd.api.types.is_float_dtype(col) or pd.api.types.is_complex_dtype(col):
        raise TypeError(f"target: the class attribute {target!r} must be categorical, got a "
                        f"numerical column of dtype {col.dtype}")


def _validate(df, predictors, target, taxonomies):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    if isinstance(predictors, str):
        predictors = [predictors]
    if not isinstance(predictors, (list, tuple, pd.Index, np.ndarray)):
        raise TypeError(f"predictors: expected a list of column names, got {type(predictors).__name__} "
                        f"{predictors!r}")
    predictors = list(predictors)
    if not predictors:
        raise ValueError("predictors: expected at least one predictor attribute, got none")
    if len(set(predictors)) != len(predictors):
        dup = sorted({str(a) for a in predictors if predictors.count(a) > 1})
        raise ValueError(f"predictors: expected distinct attributes, got {dup} more than once")
    if isinstance(target, (list, tuple, set, dict, np.ndarray, pd.Index)):
        raise TypeError(f"target: expected one column name, got {type(target).__name__} {target!r}")
    check_columns(df, predictors, "predictors")
    check_columns(df, [target], "target")
    if target in predictors:
        raise ValueError(f"target: the class attribute {target!r} is also listed as a predictor")
    _check_unique_used(df, predictors + [target], "df")
    check_nonempty(df, "df")
    if df[target].isna().any():
        check_no_nan(df, "df", [target])
    _check_target(df, target)
    attrs = _make_attrs(df, predictors, taxonomies)
    return predictors, attrs


def _check_unique_used(df, columns, name):
    """The columns used are not duplicated in ``df`` (``df[c]`` would be a frame)."""
    dup = df.columns[df.columns.duplicated()]
    bad = sorted({str(c) for c in dup if c in set(columns)})
    if bad:
        raise ValueError(f"{name}: duplicated column name(s) {bad}; rename them so that every column "
                         f"has one name")


def _check_classes(classes) -> np.ndarray:
    """A public class domain: a non-empty sequence of distinct, non-missing labels."""
    if isinstance(classes, (str, bytes)) or not isinstance(classes, (list, tuple, np.ndarray, pd.Index)):
        raise TypeError(f"classes: expected a list of class labels, got {type(classes).__name__} {classes!r}")
    out = np.empty(len(classes), dtype=object)
    out[:] = list(classes)
    if len(out) == 0:
        raise ValueError("classes: expected at least one class label, got none")
    if pd.isna(pd.Series(out, dtype=object)).any():
        raise ValueError(f"classes: expected class labels, got a missing value in {list(out)}")
    if pd.Index(out).has_duplicates:
        raise ValueError(f"classes: expected distinct class labels, got {list(out)}")
    return out


def _derive_classes(df, target, fn: str) -> np.ndarray:
    """The class labels read from the data (published outside the budget: warned about)."""
    warn_privacy_leak(
        f"classes: not given; {fn} derives the class domain from the data's {target!r} values and "
        f"publishes it outside the privacy budget (a record with a unique class is told apart). "
        f"Pass the public class domain, e.g. classes={list(ADULT_CLASSES)!r} for Adult.", stacklevel=4)
    return np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)


def _class_codes(df, target, classes) -> np.ndarray:
    y = pd.Index(classes).get_indexer(df[target].to_numpy())
    if (y < 0).any():
        raise ValueError(f"classes: class value(s) {sorted(set(df[target][y < 0]), key=str)[:5]} of "
                         f"{target!r} in the data are not in the class domain {list(classes)}")
    return y


def _prepare(df, predictors, target, taxonomies, classes=None) -> _Prepared:
    predictors, attrs = _validate(df, predictors, target, taxonomies)
    if classes is None:  # internal callers that do not publish the class domain (TDS, BA, cuts)
        classes = np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)
    else:
        classes = _check_classes(classes)
    y = _class_codes(df, target, classes)
    raw = [a.encode(df[a.name], "df") for a in attrs]
    return _from_codes(predictors, target, attrs, classes, y, raw)


def _from_codes(predictors, target, attrs, classes, y, raw) -> _Prepared:
    """The count tables of :class:`_Prepared` from encoded columns (Section 4.3's one pass)."""
    K = len(classes)
    vals, cum = [], []
    for a, x in zip(attrs, raw):
        if a.kind == "categorical":
            table = np.bincount(x * K + y, minlength=a.n_leaves * K).reshape(a.n_leaves, K)
            vals.append(None)
        else:
            v, inv = _distinct(x)
            table = np.bincount(inv * K + y, minlength=len(v) * K).reshape(len(v), K)
            vals.append(v)
        c = np.zeros((table.shape[0] + 1, K), dtype=np.int64)
        np.cumsum(table, axis=0, out=c[1:])
        cum.append(c)
    return _Prepared(list(predictors), target, attrs, classes, np.asarray(y, dtype=np.int64), list(raw), vals,
                     cum, n=len(y))


def _subset(prep: _Prepared, idx) -> _Prepared:
    """The prepared table of the records ``idx`` of ``prep`` (a training fold), without
    re-encoding: the codes are sliced and the count tables recomputed from the fold alone."""
    return _from_codes(prep.predictors, prep.target, prep.attrs, prep.classes, prep.y[idx],
                       [x[idx] for x in prep.raw])


def _distinct(x):
    """Sorted distinct values and the inverse index; a counting sort for integer data with a
    modest range (Section 4.3 sorts; the order is all that is needed)."""
    lo, hi = x.min(), x.max()
    if np.all(x == np.floor(x)) and hi - lo <= 4 * len(x) + 1_000_000:
        xi = (x - lo).astype(np.int64)
        present = np.bincount(xi, minlength=int(hi - lo) + 1) > 0
        rank = np.cumsum(present) - 1
        return np.flatnonzero(present).astype(float) + lo, rank[xi]
    return np.unique(x, return_inverse=True)


# ============================================================================ utility functions
def _entropy_rows(counts) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
    logp = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return -(p * logp).sum(axis=-1)


def max_score(child_counts) -> np.ndarray:
    """Max(D, v) = sum over children c of max_cls |D_c^cls| (Equation 4; sensitivity 1).

    ``child_counts`` has shape (..., children, classes)."""
    return np.asarray(child_counts).max(axis=-1).sum(axis=-1).astype(float)


def infogain_score(child_counts) -> np.ndarray:
    """InfoGain(D, v) = H_v(D) - sum_c |D_c|/|D_v| H_c(D) (Equation 3; sensitivity log2 |classes|).

    ``child_counts`` has shape (..., children, classes); an empty ``D_v`` scores 0."""
    cc = np.asarray(child_counts, dtype=float)
    tot = cc.sum(axis=-2)
    n = tot.sum(axis=-1)
    nc = cc.sum(axis=-1)
    cond = (nc * _entropy_rows(cc)).sum(axis=-1)
    cond = np.divide(cond, n, out=np.zeros_like(n), where=n > 0)
    return np.maximum(_entropy_rows(tot) - cond, 0.0)


_SCORES = {"max": max_score, "infogain": infogain_score}


def _sensitivity(utility: str, K: int) -> float:
    return 1.0 if utility == "max" else math.log2(K)


# ============================================================================ scoring helpers
def _cat_child_counts(prep, a_idx, node) -> np.ndarray:
    a = prep.attrs[a_idx]
    c = prep.cum[a_idx]
    ch = a.children[node]
    return np.stack([c[a.hi[k]] - c[a.lo[k]] for k in ch])


def _num_split_table(prep, a_idx, lo, hi):
    """Score intervals of the split point of numerical value [lo, hi) (Equation 6).

    Returns the left class counts per interval (J x K), the totals (K), the interval bounds
    (J + 1 boundaries; interval j is (b_j, b_{j+1}]) and their lengths.
    """
    v = prep.vals[a_idx]
    c = prep.cum[a_idx]
    i0 = int(np.searchsorted(v, lo, side="left"))
    i1 = int(np.searchsorted(v, hi, side="left"))
    inside = v[i0:i1]
    bounds = np.concatenate(([lo], inside, [hi]))
    # split point s in (bounds[j], bounds[j+1]] sends the first j distinct values left
    left = c[i0:i1 + 1] - c[i0]
    total = c[i1] - c[i0]
    lengths = np.diff(bounds)
    return left, total, bounds, lengths


def _num_scores(left, total, utility) -> np.ndarray:
    pair = np.stack([left, total[None, :] - left], axis=1)  # J x 2 x K
    return _SCORES[utility](pair)


# ============================================================================ release
@dataclass(frozen=True, eq=False)
class Release:
    """A generalized table with (noisy) counts, its cuts, and the budget ledger.

    Attributes
    ----------
    predictors, target : the attribute names.
    classes : the class domain, in the order of ``class_codes``.
    cuts : dict attribute -> tuple of cut values (taxonomy nodes or interval labels).
    splits : dict numerical attribute -> tuple of split points (sorted).
    group_codes : (rows, predictors) int array, index of each row's value in ``cuts``.
    class_codes, counts : class index and released count of each row (rows with count 0 are
        not listed; every other cell of the generalized domain was released as 0).
    history : the specializations performed, in order.
    ledger : :class:`privlib.accounting.Ledger`, one entry per mechanism call (``detail``
        names the line of Algorithm 1); empty for TDS.
    eps, eps_prime, h, utility, method : the parameters (``method`` is "diffgen" or "tds").
    eps_unspent : budget reserved but not spent: eps' per iteration that specialized a
        categorical value (Line 9 then does not run), and the eps/2 of Lines 3-11 when there
        is nothing to choose (h = 0 with categorical predictors only), so that
        ``eps_spent + eps_unspent == eps``.
    domain_cells : number of cells (groups x classes) of the generalized domain.
    """

    predictors: tuple
    target: str
    classes: tuple
    attrs: tuple = field(repr=False)
    cut_nodes: tuple = field(repr=False)
    cuts: dict
    splits: dict
    group_codes: np.ndarray = field(repr=False)
    class_codes: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    history: tuple = ()
    ledger: Ledger = field(default_factory=Ledger)
    eps: float | None = None
    eps_prime: float | None = None
    h: int | None = None
    utility: str | None = None
    method: str = "diffgen"
    eps_unspent: float = 0.0
    domain_cells: int = 0

    @property
    def n_rows(self) -> int:
        return int(len(self.counts))

    @property
    def n_records(self) -> int:
        """Sum of the released counts."""
        return int(self.counts.sum())

    @property
    def table(self) -> pd.DataFrame:
        """The released table: generalized predictors, class, count (rows with count > 0)."""
        data = {}
        for j, a in enumerate(self.predictors):
            labels = np.asarray(self.cuts[a], dtype=object)
            data[a] = labels[self.group_codes[:, j]]
        data[self.target] = np.asarray(self.classes, dtype=object)[self.class_codes]
        data["count"] = self.counts
        return pd.DataFrame(data)

    def encode(self, df) -> np.ndarray:
        """Index of every record's generalized value in ``cuts``, per predictor (n x d ints).

        Raises :class:`~privlib.hierarchy.HierarchyError` for a value outside the taxonomy."""
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
        check_columns(df, list(self.predictors), "predictors")
        _check_unique_used(df, list(self.predictors), "df")
        out = np.empty((len(df), len(self.predictors)), dtype=np.int64)
        for j, a in enumerate(self.attrs):
            x = a.encode(df[a.name], "df")
            out[:, j] = _code_under_cut(a, x, self.cut_nodes[j])
        return out

    def generalize(self, df) -> pd.DataFrame:
        """Generalize records (e.g. the test set) with the release's cuts (Section 5).

        Non-predictor columns are kept unchanged."""
        codes = self.encode(df)
        out = df.copy()
        for j, a in enumerate(self.predictors):
            out[a] = np.asarray(self.cuts[a], dtype=object)[codes[:, j]]
        return out

    @property
    def eps_spent(self) -> float:
        """Total eps of the ledger (:meth:`privlib.accounting.Ledger.total`; 0 for TDS)."""
        return self.ledger.total()


def _code_under_cut(a, x, cut) -> np.ndarray:
    if a.kind == "categorical":
        return a.cut_lookup(cut)[x]
    return np.searchsorted(np.asarray(cut[1:-1], dtype=float), x, side="right").astype(np.int64)


def _cut_labels(a, cut) -> tuple:
    if a.kind == "categorical":
        return tuple(a.labels[k] for k in cut)
    return tuple(_interval_label(lo, hi) for lo, hi in zip(cut[:-1], cut[1:]))


def _group_keys(prep, cut_nodes):
    """Per-record group index (mixed radix over the cut sizes) and the cut sizes."""
    sizes = [len(c) if a.kind == "categorical" else len(c) - 1 for a, c in zip(prep.attrs, cut_nodes)]
    total = 1
    for s in sizes:
        total *= s
    if total * prep.K >= 2 ** 62:
        raise ValueError(f"h: the generalized domain has {total} groups, too many to index; "
                         f"use fewer specializations")
    key = np.zeros(prep.n, dtype=np.int64)
    for a, x, c, s in zip(prep.attrs, prep.raw, cut_nodes, sizes):
        key = key * s + _code_under_cut(a, x, c)
    return key, sizes, total


def _noisy_counts(key, y, K, n_groups, eps_half, gen):
    """Line 12: every cell (group x class) gets count + Lap(1/eps_half), rounded to the nearest
    non-negative integer.  Returns (cells, counts) of the cells released with a count > 0.

    Cells of the generalized domain that hold no record are treated exactly: when there are
    more than :data:`DENSE_CELLS` cells, the number of empty cells whose noisy count rounds to
    at least 1 is drawn from its binomial law, their noise from Lap conditioned on >= 1/2
    (that is 1/2 + Exp(b)), and their positions uniformly among the empty cells.
    """
    b = laplace_scale(eps_half, 1.0)
    cells = n_groups * K
    flat = key * K + y
    if cells <= DENSE_CELLS:
        true = np.bincount(flat, minlength=cells)
        noisy = np.maximum(np.rint(true + gen.laplace(0.0, b, size=cells)), 0).astype(np.int64)
        idx = np.flatnonzero(noisy)
        return idx, noisy[idx]
    occ, true = np.unique(flat, return_counts=True)
    noisy = np.maximum(np.rint(true + gen.laplace(0.0, b, size=len(occ))), 0).astype(np.int64)
    n_empty = cells - len(occ)
    p = 0.5 * math.exp(-0.5 / b)
    m = int(gen.binomial(n_empty, p))
    if m > MAX_RELEASED_ROWS:
        raise ValueError(f"h: the generalized domain has {cells:,} cells; about {m:,} empty ones would be "
                         f"released with positive noisy counts -- use fewer specializations or a larger eps")
    extra = np.empty(0, dtype=np.int64)
    while len(extra) < m:
        draw = gen.integers(0, cells, size=int(1.2 * (m - len(extra))) + 16)
        draw = np.setdiff1d(np.unique(np.concatenate([extra, draw])), occ, assume_unique=True)
        extra = draw if len(draw) <= m else gen.choice(draw, size=m, replace=False)
    extra = np.sort(extra)
    extra_counts = np.maximum(np.rint(0.5 + gen.exponential(b, size=m)), 1).astype(np.int64)
    keep = noisy > 0
    idx = np.concatenate([occ[keep], extra])
    cnt = np.concatenate([noisy[keep], extra_counts])
    order = np.argsort(idx, kind="stable")
    return idx[order], cnt[order]


def _build_release(prep, cut_nodes, cells, counts, codes=None, **kw) -> Release:
    """Release from flat cell indices (group x class), or from ``codes``: rows of per-predictor
    cut indices followed by the class index."""
    K = prep.K
    sizes = [len(c) if a.kind == "categorical" else len(c) - 1 for a, c in zip(prep.attrs, cut_nodes)]
    if codes is not None:
        codes = np.asarray(codes, dtype=np.int64)
        cls = codes[:, -1]
        codes = np.ascontiguousarray(codes[:, :-1])
    else:
        cells = np.asarray(cells, dtype=np.int64)
        cls = cells % K
        # (d, rows) C-ordered, exposed as its (rows, d) transpose: no strided copy
        codes = np.array(np.unravel_index(cells // K, sizes), dtype=np.int64).reshape(len(sizes), len(cells)).T
    cuts = {a.name: _cut_labels(a, c) for a, c in zip(prep.attrs, cut_nodes)}
    splits = {a.name: tuple(float(s) for s in c[1:-1]) for a, c in zip(prep.attrs, cut_nodes)
              if a.kind == "numerical"}
    return Release(tuple(prep.predictors), prep.target, tuple(prep.classes), tuple(prep.attrs),
                   tuple(tuple(c) for c in cut_nodes), cuts, splits, codes, cls.astype(np.int64),
                   np.asarray(counts, dtype=np.int64), **kw)


# ============================================================================ specialization
def _specialize(a, cut: list, key, split, iteration: int, score: float):
    """Specialize the cut value ``key`` of attribute ``a`` (Algorithm 1, Line 8; TDS's step).

    ``cut`` is the attribute's current cut, changed in place: a categorical value (taxonomy
    node id) is replaced by its children; for a numerical value ``key = (lo, hi)`` the split
    point ``split`` is inserted among the interval bounds, giving ``[lo, split)`` and
    ``[split, hi)``.  Shared by :func:`diffgen` and :func:`tds`.

    Returns the keys of the new cut values (child node ids, or the two intervals as
    ``(lo, hi)`` pairs, in order) and the :class:`Specialization` record.
    """
    if a.kind == "categorical":
        pos = cut.index(key)
        ch = list(a.children[key])
        cut[pos:pos + 1] = ch
        return ch, Specialization(iteration, a.name, a.labels[key], tuple(a.labels[c] for c in ch), None, score)
    lo, hi = key
    cut.insert(int(np.searchsorted(cut, split)), split)
    ch = [(lo, split), (split, hi)]
    return ch, Specialization(iteration, a.name, _interval_label(lo, hi),
                              tuple(_interval_label(clo, chi) for clo, chi in ch), split, score)


# ============================================================================ DiffGen
def _check_h(prep, h):
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if not any(a.kind == "numerical" for a in prep.attrs):
        room = sum(a.n_internal for a in prep.attrs)
        if h > room:
            raise ValueError(
                f"h: expected at most {room} specializations (the number of non-leaf taxonomy values; "
                f"with no numerical predictor the cut reaches the leaves after that), got {h}")
    return h


def _check_diffgen_args(eps, h, utility):
    """Validate the scalar arguments of :func:`diffgen` before touching the data."""
    eps = check_epsilon(eps)
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if not isinstance(utility, str):
        raise TypeError(f"utility: expected one of {list(_SCORES)}, got {type(utility).__name__} {utility!r}")
    check_in(utility, "utility", tuple(_SCORES))
    return eps, h, utility


def diffgen(df, predictors, target, taxonomies, eps, h, utility="max", *, classes=None, rng) -> Release:
    """Release ``df`` under eps-differential privacy by DiffGen (Algorithm 1).

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table D (no missing values).
    predictors : list of str
        Predictor attributes A^pr (distinct).
    target : str
        The class attribute A^cls (categorical: strings, integers, booleans; not floats).
    taxonomies : dict
        Every predictor -> :class:`~privlib.hierarchy.Hierarchy` (categorical) or its public
        numerical domain ``(low, high)``, meaning ``[low, high)`` (e.g. :data:`ADULT_DOMAINS`);
        a value outside it is an error.
    eps : float
        Privacy budget, > 0.
    h : int
        Number of specializations, 0 <= h <= :data:`MAX_H`.  With only categorical predictors,
        at most the number of non-leaf taxonomy values (beyond that there is nothing left to
        specialize: the cut is the leaves and the release is the noisy contingency table);
        with a numerical predictor larger ``h`` are possible, as intervals can be split again,
        until the generalized domain becomes too large to release.
    utility : {"max", "infogain"}
        Score of a candidate: Max (Equation 4, sensitivity 1) or InfoGain (Equation 3,
        sensitivity log2 |classes|).
    classes : sequence, optional
        The public class domain (e.g. :data:`ADULT_CLASSES`).  Every class gets a noisy count
        in every group, whether or not a record holds it.  When omitted the domain is read
        from the data -- a release then tells apart a neighbour holding a unique class at any
        eps -- and a :class:`~privlib.PrivacyLeakWarning` is issued.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    Release
        Noisy counts of every non-empty released cell, the cuts, the history of
        specializations and the :class:`~privlib.accounting.Ledger` (``detail`` names the line
        of Algorithm 1):

        * Line 3: ``eps' = eps / (2 (|A_n^pr| + 2h))``;
        * Line 4: one exponential mechanism per numerical predictor (eps' each, sequential):
          the split point of its full-domain interval, interval weighted by its length
          (Equation 6), then uniform inside the chosen interval;
        * Line 7: one exponential mechanism per iteration (eps', sequential) choosing the
          candidate of the current cut, score Max or InfoGain;
        * Line 9: when a numerical value was specialized, one exponential mechanism per new
          interval (eps' each, parallel: the two intervals hold disjoint records);
        * Line 12: Laplace noise Lap(2/eps) on the count of every group x class of the
          generalized domain (eps/2, parallel: the groups are disjoint), rounded to the
          nearest non-negative integer.

        ``eps_spent + eps_unspent == eps`` (Theorem 4.1); the ledger is checked against
        ``eps`` before the release is returned.

    Raises
    ------
    ValueError, TypeError
        A bad argument; the message names it (``eps``, ``h``, ``utility``, ``predictors``,
        ``target``, ``taxonomies``, ``classes``, ``df``).
    """
    eps, h, utility = _check_diffgen_args(eps, h, utility)
    gen = as_generator(rng)
    predictors, _ = _validate(df, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(df, target, "diffgen")
    prep = _prepare(df, predictors, target, taxonomies, classes=classes)
    return _diffgen(prep, eps, h, utility, gen)


def _splittable(lo: float, hi: float) -> bool:
    """An interval [lo, hi) holds a split point s with lo < s < hi (floating point)."""
    return bool(np.nextafter(lo, hi) < hi)


def _diffgen(prep: _Prepared, eps, h, utility, gen) -> Release:
    h = _check_h(prep, h)
    K = prep.K
    if utility == "infogain" and K < 2:
        raise ValueError(f"utility: InfoGain needs at least 2 classes (its sensitivity log2 |classes| is 0); "
                         f"the class domain is {list(prep.classes)}")
    du = _sensitivity(utility, max(K, 2))
    score_fn = _SCORES[utility]
    n_num = sum(a.kind == "numerical" for a in prep.attrs)
    denom = 2 * (n_num + 2 * h)
    eps_p = eps / denom if denom > 0 else 0.0
    entries: list = []
    history: list = []
    line9_iterations = 0
    p_empty = 0.5 * math.exp(-eps / 4.0)  # P(an empty cell is released), Lap(2/eps) rounded >= 1

    # Lines 1-2: the topmost cut
    cut_nodes = [[0] if a.kind == "categorical" else [a.low, a.high] for a in prep.attrs]
    # candidates: (attribute index, key, score, split); key = node id or (lo, hi)
    cands: list = []

    def choose_split(a_idx, lo, hi, line, group):
        left, total, bounds, lengths = _num_split_table(prep, a_idx, lo, hi)
        u = _num_scores(left, total, utility)
        j = exponential(u, eps_p, du, rng=gen, base_measure=lengths)
        s = bounds[j] + gen.random() * (bounds[j + 1] - bounds[j])
        if not lo < s < hi:  # a draw on the boundary (probability ~0): stay inside the domain
            s = min(max(s, np.nextafter(lo, hi)), np.nextafter(hi, lo))
        entries.append(LedgerEntry("exponential", eps_p, "parallel" if group else "sequential", group=group,
                                   detail=f"Algorithm 1, line {line}: split point of {prep.attrs[a_idx].name} "
                                          f"{_interval_label(lo, hi)}"))
        return float(s), float(u[j])

    def add_cat(a_idx, node):
        a = prep.attrs[a_idx]
        if a.children[node]:
            cands.append((a_idx, node, float(score_fn(_cat_child_counts(prep, a_idx, node))), None))

    # Line 4 (split values of the numerical candidates) and Line 5 (scores)
    for a_idx, a in enumerate(prep.attrs):
        if a.kind == "numerical":
            s, u = choose_split(a_idx, a.low, a.high, 4, "")
            cands.append((a_idx, (a.low, a.high), u, s))
        else:
            add_cat(a_idx, 0)

    sizes = [1] * len(prep.attrs)
    # Lines 6-11
    for it in range(1, h + 1):
        if not cands:
            raise ValueError(f"h: no candidate left to specialize at iteration {it} (every interval is "
                             f"too narrow to split further); expected h <= {it - 1}, got {h}")
        u = np.array([c[2] for c in cands])
        pick = exponential(u, eps_p, du, rng=gen)
        entries.append(LedgerEntry("exponential", eps_p, "sequential",
                                   detail=f"Algorithm 1, line 7: iteration {it}, candidate selection "
                                          f"among {len(cands)}"))
        a_idx, key, score, split = cands.pop(pick)
        a = prep.attrs[a_idx]
        new, spec = _specialize(a, cut_nodes[a_idx], key, split, it, score)  # Line 8
        sizes[a_idx] += len(new) - 1
        if a.kind == "categorical":
            for c in new:
                add_cat(a_idx, c)
        else:
            group = f"Algorithm 1, line 9, iteration {it}"
            ran = False
            for clo, chi in new:
                if _splittable(clo, chi):
                    s, uu = choose_split(a_idx, clo, chi, 9, group)
                    cands.append((a_idx, (clo, chi), uu, s))
                    ran = True
            line9_iterations += ran
        history.append(spec)
        # the generalized domain must stay releasable (checked as it grows, not after h steps)
        cells = math.prod(sizes) * K
        if cells >= 2 ** 62 or (cells > DENSE_CELLS and (cells - prep.n) * p_empty > 2 * MAX_RELEASED_ROWS):
            raise ValueError(f"h: after {it} specializations the generalized domain has {cells:,} cells, "
                             f"too many to release with noise; use fewer specializations than {h}")

    # Line 12
    key, sizes, n_groups = _group_keys(prep, cut_nodes)
    cells, counts = _noisy_counts(key, prep.y, K, n_groups, eps / 2.0, gen)
    entries.append(LedgerEntry("laplace", eps / 2.0, "parallel", group="Algorithm 1, line 12",
                               detail=f"Algorithm 1, line 12: Lap(2/eps) on {n_groups * K:,} disjoint "
                                      f"group x class counts"))
    # reserved and not spent: Line 9 of the iterations that did not split an interval; with
    # nothing to choose at all (eps' undefined), the half of eps of Lines 3-11
    unspent = eps_p * (h - line9_iterations) if denom > 0 else eps / 2.0
    ledger = Ledger(entries).check(eps)
    return _build_release(prep, cut_nodes, cells, counts, history=tuple(history), ledger=ledger,
                          eps=eps, eps_prime=eps_p, h=h, utility=utility, method="diffgen",
                          eps_unspent=unspent, domain_cells=n_groups * K)


# ============================================================================ TDS
def tds(df, predictors, target, taxonomies, k, qid=None) -> Release:
    """Top-down specialization for k-anonymity (Fung, Wang & Yu 2005), the baseline of Figure 4.

    ``qid`` is the quasi-identifier, a subset of ``predictors``; by default (None) all
    predictors form one quasi-identifier, so every group of the release holds >= k records.
    Predictors outside the QID are not generalized: TDS releases them unchanged (categorical
    values at the leaves, numerical values as the intervals between successive distinct
    training values, which order and separate the records exactly as the raw values do), and
    k-anonymity is required of the QID groups only.  Starting from the topmost cut of the QID
    attributes, each iteration
    performs the *valid* (every non-empty group keeps >= k records) and *beneficial*
    (InfoGain > 0) specialization with the highest ``Score(v) = InfoGain(v) / (AnonyLoss(v) + 1)``,
    ``AnonyLoss(v) = A - A_v`` (A: the smallest group size now, A_v: after specializing v).
    A numerical interval is split at the point that maximizes InfoGain (between two distinct
    values, at their midpoint), as in C4.5.  Stops when no candidate is valid and beneficial.

    Returns a :class:`Release` with the exact counts of the non-empty groups (no budget).
    """
    k = check_int(k, "k", minimum=1)
    prep = _prepare(df, predictors, target, taxonomies)
    if k > prep.n:
        raise ValueError(f"k: expected at most the number of records ({prep.n}), got {k}")
    return _tds(prep, k, _check_qid(qid, prep.predictors))


def _check_qid(qid, predictors):
    """None (all predictors) or a non-empty list of distinct predictors -> tuple or None."""
    if qid is None:
        return None
    if isinstance(qid, str):
        qid = [qid]
    qid = list(qid)
    if not qid:
        raise ValueError("qid: expected at least one quasi-identifier attribute, got none")
    unknown = [a for a in qid if a not in predictors]
    if unknown:
        raise ValueError(f"qid: attribute(s) {unknown} are not predictors; expected a subset of {list(predictors)}")
    if len(set(qid)) != len(qid):
        raise ValueError(f"qid: expected distinct attributes, got {qid}")
    return None if set(qid) == set(predictors) else tuple(qid)


def _raw_cut(prep, a_idx) -> list:
    """The cut that releases attribute ``a_idx`` unchanged: every taxonomy leaf, or intervals
    split at the midpoints between successive distinct training values."""
    a = prep.attrs[a_idx]
    if a.kind == "categorical":
        return [i for i in range(len(a.nodes)) if not a.children[i]]  # depth-first = leaf order
    v = prep.vals[a_idx]
    return [a.low, *(0.5 * (v[:-1] + v[1:])).tolist(), a.high]


def _tds_num_split(prep, a_idx, lo, hi):
    left, total, bounds, _ = _num_split_table(prep, a_idx, lo, hi)
    J = len(bounds) - 1
    if J < 3:  # fewer than two distinct values inside: nothing to split
        return None, 0.0
    inner = np.arange(1, J - 1)  # split between distinct values inner-1 and inner
    u = infogain_score(np.stack([left[inner], total[None, :] - left[inner]], axis=1))
    j = int(inner[np.argmax(u)])
    s = 0.5 * (bounds[j] + bounds[j + 1])
    return float(s), float(u.max())


def _tds(prep: _Prepared, k: int, qid=None) -> Release:
    in_qid = [qid is None or a.name in qid for a in prep.attrs]
    cut_nodes = [([0] if a.kind == "categorical" else [a.low, a.high]) if q else _raw_cut(prep, j)
                 for j, (a, q) in enumerate(zip(prep.attrs, in_qid))]
    # per-record group id (the leaf partition) and group sizes
    gid = np.zeros(prep.n, dtype=np.int64)
    sizes_g = np.array([prep.n])
    # per attribute: record order by value so that a cut value's records are one slice
    order = [np.argsort(x, kind="stable") for x in prep.raw]
    sorted_vals = [x[o] for x, o in zip(prep.raw, order)]
    cands = []  # (a_idx, key, infogain, split)
    history = []

    def add(a_idx, key):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            if a.children[key]:
                ig = float(infogain_score(_cat_child_counts(prep, a_idx, key)))
                cands.append((a_idx, key, ig, None))
        else:
            s, ig = _tds_num_split(prep, a_idx, *key)
            if s is not None:
                cands.append((a_idx, key, ig, s))

    def records(a_idx, key):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            lo, hi = a.lo[key], a.hi[key]
        else:
            lo, hi = key
        i0, i1 = np.searchsorted(sorted_vals[a_idx], [lo, hi], side="left")
        return order[a_idx][i0:i1]

    def child_codes(a_idx, key, split, idx):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            ch = a.children[key]
            lut = np.full(a.n_leaves, -1, dtype=np.int64)
            for j, c in enumerate(ch):
                lut[a.lo[c]:a.hi[c]] = j
            return lut[prep.raw[a_idx][idx]], len(ch)
        return (prep.raw[a_idx][idx] >= split).astype(np.int64), 2

    for a_idx, a in enumerate(prep.attrs):
        if in_qid[a_idx]:
            add(a_idx, 0 if a.kind == "categorical" else (a.low, a.high))

    it = 0
    while True:
        A = int(sizes_g[sizes_g > 0].min())
        best, best_score, best_info = None, -np.inf, None
        still = []
        for cand in cands:
            a_idx, key, ig, split = cand
            idx = records(a_idx, key)
            if len(idx) == 0:
                still.append(cand)
                continue
            cc, nch = child_codes(a_idx, key, split, idx)
            g = gid[idx]
            sub = np.bincount(g * nch + cc, minlength=len(sizes_g) * nch)
            new_min = int(sub[sub > 0].min())
            if new_min < k:
                continue  # invalid now, invalid forever (groups only get smaller)
            still.append(cand)
            if ig <= 0:
                continue
            touched = np.zeros(len(sizes_g), dtype=bool)
            touched[np.unique(g)] = True
            rest = sizes_g[~touched & (sizes_g > 0)]
            A_v = min(new_min, int(rest.min())) if len(rest) else new_min
            score = ig / (A - A_v + 1)
            if score > best_score:
                best, best_score, best_info = cand, score, (idx, cc, nch, g)
        cands = still
        if best is None:
            break
        it += 1
        cands.remove(best)
        a_idx, key, ig, split = best
        idx, cc, nch, g = best_info
        a = prep.attrs[a_idx]
        # new group ids: (old group, child) pairs of the specialized records
        pair = g * nch + cc
        uniq, inv = np.unique(pair, return_inverse=True)
        new_ids = len(sizes_g) + np.arange(len(uniq))
        sizes_g = np.concatenate([sizes_g, np.bincount(inv, minlength=len(uniq))])
        sizes_g[np.unique(g)] = 0
        gid[idx] = new_ids[inv]
        new, spec = _specialize(a, cut_nodes[a_idx], key, split, it, ig)
        for c in new:
            add(a_idx, c)
        history.append(spec)

    if qid is None:
        key_, sizes, n_groups = _group_keys(prep, cut_nodes)
        cells, counts = np.unique(key_ * prep.K + prep.y, return_counts=True)
        return _build_release(prep, cut_nodes, cells, counts, history=tuple(history), method="tds",
                              domain_cells=n_groups * prep.K)
    # raw non-QID attributes: the domain can exceed int64, so count the occurring rows directly
    codes = np.column_stack([_code_under_cut(a, x, c) for a, x, c in zip(prep.attrs, prep.raw, cut_nodes)]
                            + [prep.y])
    rows, counts = np.unique(codes, axis=0, return_counts=True)
    n_groups = 1
    for a, c in zip(prep.attrs, cut_nodes):
        n_groups *= len(c) if a.kind == "categorical" else len(c) - 1
    return _build_release(prep, cut_nodes, None, counts, codes=rows, history=tuple(history),
                          method="tds", domain_cells=n_groups * prep.K)


# ============================================================================ accuracy
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
    X = _features(release.group_codes.T)
    clf = _tree(params).fit(X, release.class_codes, sample_weight=release.counts.astype(float))
    Xt = _features(test_codes.T)
    return float(np.mean(clf.predict(Xt) == y_test))


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


def accuracy(release: Release, test, tree_params=None) -> float:
    """Classification accuracy CA of a C4.5-style tree built on the release (Section 5).

    The tree (:data:`TREE_PARAMS`: entropy criterion, minimum leaf weight) is trained on the
    released rows with ``sample_weight`` = released counts; every generalized predictor is
    coded by its rank (see ``_features``).  The test records are generalized with the
    release's cuts (``release.encode`` / ``release.generalize``) and the fraction classified
    correctly is returned.  Works for DiffGen and TDS releases alike.
    """
    if not isinstance(release, Release):
        raise TypeError(f"release: expected a Release, got {type(release).__name__}")
    if not isinstance(test, pd.DataFrame):
        raise TypeError(f"test: expected a pandas DataFrame, got {type(test).__name__}")
    check_nonempty(test, "test")
    y = _test_labels(release, test)
    codes = release.encode(test)
    return _release_accuracy(release, codes, y, tree_params)


def baseline_accuracy(train, test, predictors, target, taxonomies, tree_params=None) -> float:
    """BA: accuracy of the same learner on the raw data (numerical values as they are,
    categorical leaves by their depth-first rank in the taxonomy)."""
    prep = _prepare(train, predictors, target, taxonomies)
    tprep = _encode_test(prep, test)
    clf = _tree(tree_params).fit(_features(prep.raw), prep.y)
    return float(np.mean(clf.predict(_features(tprep[0])) == tprep[1]))


def select_min_leaf(train, predictors, target, taxonomies, grid=MIN_LEAF_GRID, folds=5, *, rng) -> pd.DataFrame:
    """Cross-validated accuracy of the raw-data tree for each ``min_weight_fraction_leaf``.

    How :data:`TREE_PARAMS` was chosen: C4.5 prunes its trees, scikit-learn's trees do not,
    and an unpruned tree over-fits Adult (about 81% instead of 85%).

    ``rng`` (required, keyword-only) shuffles the folds: an int below 2**32 is passed to
    scikit-learn's ``StratifiedKFold`` as its ``random_state`` (the chapter uses 0), a
    Generator draws that seed."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    folds = check_int(folds, "folds", minimum=2)
    gen = as_generator(rng)
    seed = int(rng) if not isinstance(rng, np.random.Generator) and int(rng) < 2 ** 32 else int(gen.integers(2 ** 32))
    prep = _prepare(train, predictors, target, taxonomies)
    X = _features(prep.raw)
    cv = StratifiedKFold(folds, shuffle=True, random_state=seed)
    rows = [{"min_weight_fraction_leaf": m,
             "cv_accuracy": float(cross_val_score(_tree({"min_weight_fraction_leaf": m}), X, prep.y, cv=cv).mean())}
            for m in grid]
    return pd.DataFrame(rows)


def lower_bound_accuracy(train, test, target) -> float:
    """LA: accuracy with every predictor removed -- predict the training majority class
    (ties: the smallest label)."""
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


# ============================================================================ Table 1, Figure 2
def _cut_from_spec(a, spec):
    if a.kind == "categorical":
        nodes = []
        for v in spec:
            if v not in a.node_of_label:
                raise HierarchyError(f"cuts: value {v!r} is not a node of the taxonomy of {a.name!r}")
            nodes.append(a.node_of_label[v])
        covered = np.zeros(a.n_leaves, dtype=int)
        for nd in nodes:
            covered[a.lo[nd]:a.hi[nd]] += 1
        if not (covered == 1).all():
            raise ValueError(f"cuts[{a.name!r}]: {list(spec)} is not a cut (every leaf must lie under "
                             f"exactly one value)")
        return nodes
    if isinstance(spec, (str, bytes)) or not hasattr(spec, "__iter__"):
        raise TypeError(f"cuts[{a.name!r}]: expected a list of split points, got {spec!r}")
    pts = sorted(float(s) for s in spec)
    if len(set(pts)) != len(pts):
        raise ValueError(f"cuts[{a.name!r}]: expected distinct split points, got {pts}")
    if any(not a.low < s < a.high for s in pts):
        raise ValueError(f"cuts[{a.name!r}]: split points must lie inside ({a.low:g}, {a.high:g}), got {pts}")
    return [a.low, *pts, a.high]


def _cuts_release(df, predictors, target, taxonomies, cuts):
    if target is None:
        tmp = df.assign(_class="*")
        target = "_class"
    else:
        tmp = df
    prep = _prepare(tmp, predictors, target, taxonomies)
    if cuts is None:
        cuts = {}
    if not isinstance(cuts, dict):
        raise TypeError(f"cuts: expected a dict predictor -> cut, got {type(cuts).__name__} {cuts!r}")
    unknown = [a for a in cuts if a not in prep.predictors]
    if unknown:
        raise ValueError(f"cuts: attribute(s) {unknown} are not predictors; expected a subset of "
                         f"{list(prep.predictors)}")
    cut_nodes = []
    for a in prep.attrs:
        spec = cuts.get(a.name)
        if spec is None:
            cut_nodes.append([0] if a.kind == "categorical" else [a.low, a.high])
        else:
            cut_nodes.append(_cut_from_spec(a, spec))
    return prep, cut_nodes, target


def apply_cut(df, predictors, taxonomies, cuts) -> pd.DataFrame:
    """Generalize ``df`` to the given cuts (e.g. Table 1.b).

    ``cuts`` maps a predictor to its cut: a list of taxonomy values (categorical) or a list of
    split points (numerical); a predictor not listed stays at its topmost value."""
    prep, cut_nodes, _ = _cuts_release(df, predictors, None, taxonomies, cuts)
    out = df.copy()
    for j, a in enumerate(prep.attrs):
        labels = np.asarray(_cut_labels(a, cut_nodes[j]), dtype=object)
        out[a.name] = labels[_code_under_cut(a, prep.raw[j], cut_nodes[j])]
    return out


def contingency_table(df, predictors, taxonomies, cuts, target=None) -> pd.DataFrame:
    """Exact count of every combination of cut values, zeros included (Table 1.c and 1.d).

    With ``target`` the class is one more dimension (the equivalence groups of Line 12)."""
    prep, cut_nodes, tgt = _cuts_release(df, predictors, target, taxonomies, cuts)
    key, sizes, n_groups = _group_keys(prep, cut_nodes)
    K = prep.K
    cells = np.arange(n_groups * K)
    counts = np.bincount(key * K + prep.y, minlength=n_groups * K)
    rel = _build_release(prep, cut_nodes, cells, counts)
    table = rel.table
    if target is None:
        table = table.drop(columns=[tgt])
    return table


def partition_tree(df, predictors, target, taxonomies, steps) -> pd.DataFrame:
    """The tree of partitions of Figure 2, built literally as Section 4.3 describes.

    Reference implementation for small tables: the leaf partitions hold record index arrays,
    ``Link_v`` lists the leaf partitions whose generalized record contains ``v``, and
    specializing ``v`` splits exactly the partitions on ``Link_v`` into one new partition per
    child (empty ones included), collecting the counts |D_c| and |D_c^cls| in the same pass.

    Parameters
    ----------
    steps : list of (attribute, value) or (attribute, value, split)
        The specializations, in order (``value`` a taxonomy node, or the label of the interval
        to split at ``split``).

    Returns
    -------
    pandas.DataFrame
        One row per partition: ``id, parent, depth, <predictors>, count`` and one count
        column per class, in creation order.
    """
    prep = _prepare(df, predictors, target, taxonomies)
    d = len(prep.attrs)
    top = tuple(0 if a.kind == "categorical" else (a.low, a.high) for a in prep.attrs)
    parts = [{"id": 0, "parent": -1, "depth": 0, "rec": top, "idx": np.arange(prep.n)}]
    leaves = [0]
    link: dict = {}
    for j in range(d):
        link.setdefault((j, top[j]), []).append(0)

    def label(a, v):
        return a.labels[v] if a.kind == "categorical" else _interval_label(*v)

    for step in steps:
        attr, value = step[0], step[1]
        if attr not in prep.predictors:
            raise ValueError(f"steps: unknown attribute {attr!r}")
        j = prep.predictors.index(attr)
        a = prep.attrs[j]
        if a.kind == "categorical":
            if value not in a.node_of_label:
                raise HierarchyError(f"steps: {value!r} is not a node of the taxonomy of {attr!r}")
            v = a.node_of_label[value]
            kids = list(a.children[v])
            if not kids:
                raise ValueError(f"steps: {value!r} is a leaf of {attr!r}; it cannot be specialized")
        else:
            if len(step) < 3:
                raise ValueError(f"steps: a numerical specialization needs a split point, got {step!r}")
            v = next((key for (jj, key) in link if jj == j and _interval_label(*key) == value), None)
            if v is None:
                raise ValueError(f"steps: interval {value!r} of {attr!r} is not in the current cut")
            s = float(step[2])
            if not v[0] < s < v[1]:
                raise ValueError(f"steps: split {s} outside {value}")
            kids = [(v[0], s), (s, v[1])]
        for pid in link.pop((j, v), []):
            p = parts[pid]
            x = prep.raw[j][p["idx"]]
            leaves.remove(pid)
            for jj in range(d):
                if jj != j:
                    link[(jj, p["rec"][jj])].remove(pid)
            for kk in kids:
                mask = ((x >= a.lo[kk]) & (x < a.hi[kk])) if a.kind == "categorical" else ((x >= kk[0]) & (x < kk[1]))
                rec = tuple(kk if jj == j else p["rec"][jj] for jj in range(d))
                q = {"id": len(parts), "parent": pid, "depth": p["depth"] + 1, "rec": rec, "idx": p["idx"][mask]}
                parts.append(q)
                leaves.append(q["id"])
                for jj in range(d):
                    link.setdefault((jj, rec[jj]), []).append(q["id"])
    rows = []
    for p in parts:
        row = {"id": p["id"], "parent": p["parent"], "depth": p["depth"]}
        for jj, a in enumerate(prep.attrs):
            row[a.name] = label(a, p["rec"][jj])
        yy = prep.y[p["idx"]]
        row["count"] = len(p["idx"])
        for c, name in enumerate(prep.classes):
            row[f"{prep.target}={name}"] = int((yy == c).sum())
        row["leaf"] = p["id"] in leaves
        rows.append(row)
    return pd.DataFrame(rows)


# ============================================================================ experiments
_WORKER: dict = {}


def _init_worker(payload):
    _WORKER.clear()
    _WORKER.update(payload)


def _fold(split):
    """Training and test data of fold ``split = (repeat, fold)``, cached for the next task."""
    cached = _WORKER.get("fold")
    if cached is not None and cached[0] == split:
        return cached[1]
    r, f = split
    full, parts = _WORKER["full"], _WORKER["parts"][r]
    tr = np.sort(np.concatenate([p for q, p in enumerate(parts) if q != f]))
    te = np.sort(parts[f])
    data = (_subset(full, tr), ([x[te] for x in full.raw], full.y[te]))
    _WORKER["fold"] = (split, data)
    return data


def _sweep_task(task):
    i, eps, h, utility, seed, split, qid = task
    if split is None:
        prep, test = _WORKER["prep"], _WORKER["test"]
    else:
        prep, test = _fold(split)
    gen = np.random.default_rng(np.random.SeedSequence([seed, i]))
    t0 = time.perf_counter()
    if utility == "tds":
        rel = _tds(prep, h, qid)
    else:
        rel = _diffgen(prep, eps, h, utility, gen)
    seconds = time.perf_counter() - t0
    codes = np.empty((len(test[1]), len(prep.attrs)), dtype=np.int64)
    for j, a in enumerate(prep.attrs):
        codes[:, j] = _code_under_cut(a, test[0][j], rel.cut_nodes[j])
    ca = _release_accuracy(rel, codes, test[1], _WORKER.get("tree_params"))
    return i, ca, rel.n_rows, rel.domain_cells, seconds


def _run_tasks(tasks, payload, workers, progress, desc):
    workers = check_int(workers, "workers", minimum=1)
    bar = progress_bar(len(tasks), desc, progress)
    results = [None] * len(tasks)
    if workers == 1:
        _init_worker(payload)
        for r in map(_sweep_task, tasks):
            results[r[0]] = r
            bar.update()
        _WORKER.clear()
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(payload,)) as ex:
            for r in ex.map(_sweep_task, tasks, chunksize=max(1, len(tasks) // (8 * workers))):
                results[r[0]] = r
                bar.update()
    bar.close()
    return results


def _seed_of(rng) -> int:
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(2 ** 63))
    as_generator(rng)  # validates
    return int(rng)


def _check_list(values, name):
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name}: expected a list, got {type(values).__name__} {values!r}")
    values = list(values)
    if not values:
        raise ValueError(f"{name}: expected at least one value, got none")
    return values


def sweep(train, test, predictors, target, taxonomies, eps_values, h_values, utilities=("max",), runs=10,
          *, rng, classes=None, workers=1, progress=False, tree_params=None) -> pd.DataFrame:
    """Figure 3: CA of DiffGen for every (utility, eps, h), ``runs`` runs each.

    ``rng`` (required, keyword-only; int or Generator) gives the seed; run ``i`` of the task
    list is seeded with ``SeedSequence([seed, i])``, so the results do not depend on
    ``workers`` (processes; 2 uses both cores of the book's CI machine).  ``classes``: the
    public class domain (see :func:`diffgen`; omitted: read from ``train``, with a
    :class:`~privlib.PrivacyLeakWarning`).  Test records whose class is outside it are an error.

    Returns a DataFrame ``utility, eps, h, run, ca, rows, cells, seconds`` (``rows``: released
    rows with a positive count; ``cells``: size of the generalized domain; ``seconds``: time
    of the anonymization alone -- the only column that varies between executions).

    ``progress``: ``True`` shows tqdm's live bar, ``"text"`` a reproducible text bar on stderr
    (for notebooks checked by nbval), ``False`` none.
    """
    check_progress(progress)
    runs = check_int(runs, "runs", minimum=1)
    for u in _check_list(utilities, "utilities"):
        check_in(u, "utilities", tuple(_SCORES))
    eps_values = [check_epsilon(e, "eps_values") for e in _check_list(eps_values, "eps_values")]
    h_values = [check_int(h, "h_values", minimum=0, maximum=MAX_H) for h in _check_list(h_values, "h_values")]
    seed = _seed_of(rng)
    _validate(train, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(train, target, "sweep")
    prep = _prepare(train, predictors, target, taxonomies, classes=classes)
    for h in h_values:
        _check_h(prep, h)
    test_enc = _encode_test(prep, test)
    grid = [(u, e, h, r) for u in utilities for e in eps_values for h in h_values for r in range(runs)]
    tasks = [(i, e, h, u, seed, None, None) for i, (u, e, h, r) in enumerate(grid)]
    res = _run_tasks(tasks, {"prep": prep, "test": test_enc, "tree_params": tree_params}, workers, progress,
                     "DiffGen sweep")
    return pd.DataFrame([{"utility": u, "eps": e, "h": h, "run": r, "ca": res[i][1], "rows": res[i][2],
                          "cells": res[i][3], "seconds": res[i][4]} for i, (u, e, h, r) in enumerate(grid)])


def held_out_best(results, by="h", value="ca", run="run") -> pd.DataFrame:
    """The value of a curve at its best point, estimated without selection bias.

    The source reads "the highest point" of a curve of means over ``runs`` runs (Figure 3,
    eps = 0.1).  The maximum over h of noisy means is biased upwards: it picks the h whose
    runs happened to be lucky.  This function estimates it leave-one-run-out: for each run
    ``r``, ``h*_r`` is the ``by`` value with the highest mean ``value`` over the *other* runs,
    and ``value`` of run ``r`` at ``h*_r`` is recorded.  The mean of the recorded values is
    an unbiased estimate of the expected accuracy of a data-chosen best h (which is at most
    the true highest point, so the estimate errs, if at all, downwards).

    Parameters
    ----------
    results : DataFrame with columns ``by``, ``run`` and ``value`` (one curve, e.g. one
        utility and eps of :func:`sweep`), at least 2 runs, every run at every ``by`` value.

    Returns
    -------
    DataFrame ``run, <by> (chosen without this run), value`` (one row per run).
    """
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results: expected a pandas DataFrame, got {type(results).__name__}")
    check_columns(results, [by, value, run], "results")
    check_no_nan(results, "results", [by, value, run])
    table = results.pivot_table(index=run, columns=by, values=value, aggfunc="mean")
    if len(table) < 2:
        raise ValueError(f"results: expected at least 2 runs to hold one out, got {len(table)}")
    if table.isna().any().any():
        raise ValueError(f"results: every run needs a {value!r} at every {by!r}")
    x = table.to_numpy(dtype=float)
    others = (x.sum(axis=0)[None, :] - x) / (len(x) - 1)   # mean of the other runs, per run
    j = others.argmax(axis=1)
    return pd.DataFrame({run: table.index.to_numpy(), by: table.columns.to_numpy()[j],
                         value: x[np.arange(len(x)), j]})


def cross_validate(df, predictors, target, taxonomies, eps_values=(), h=15, utility="max", k=None, folds=10,
                   repeats=1, *, rng, classes=None, workers=1, progress=False, tree_params=None,
                   qid=None, tds=None) -> pd.DataFrame:
    """Figure 4: ``repeats`` runs of ``folds``-fold cross-validation of DiffGen (one row per
    eps, fold and repeat) and, when ``k`` is given, of TDS with threshold ``k`` and
    quasi-identifier ``qid`` (see :func:`tds`; None: all predictors).

    ``tds`` (optional): further TDS set-ups on the same folds, a dict ``name -> (k, qid)``
    (e.g. Fung, Wang & Yu's TopN quasi-identifiers at k = 100); their rows carry ``method =
    name``.  The rows of ``k`` / ``qid`` carry ``method = "tds"``.

    ``rng`` (required, keyword-only) gives the seed: fold ``f`` of repeat ``r`` is drawn from
    ``SeedSequence([seed, r])``; results do not depend on ``workers``.  ``classes``: the public
    class domain (omitted: read from ``df``, with a :class:`~privlib.PrivacyLeakWarning` when
    DiffGen runs).  Returns ``method, eps, repeat, fold, ca, seconds`` (anonymization time).

    The table is encoded once; each fold's count tables are rebuilt from the codes of its
    training records (Section 4.3's one pass), by the process that runs the fold's tasks.

    ``progress``: ``True`` shows tqdm's live bar, ``"text"`` a reproducible text bar on stderr
    (for notebooks checked by nbval), ``False`` none.
    """
    check_progress(progress)
    folds = check_int(folds, "folds", minimum=2)
    repeats = check_int(repeats, "repeats", minimum=1)
    check_in(utility, "utility", tuple(_SCORES))
    if isinstance(eps_values, (str, bytes)) or not hasattr(eps_values, "__iter__"):
        raise TypeError(f"eps_values: expected a list, got {type(eps_values).__name__} {eps_values!r}")
    eps_values = [check_epsilon(e, "eps_values") for e in eps_values]
    if tds is not None and not isinstance(tds, dict):
        raise TypeError(f"tds: expected a dict name -> (k, qid), got {type(tds).__name__} {tds!r}")
    tds = dict(tds or {})
    if not eps_values and k is None and not tds:
        raise ValueError("eps_values: expected at least one eps (or a k for TDS), got nothing to run")
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if k is not None:
        k = check_int(k, "k", minimum=1)
    seed = _seed_of(rng)
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    predictors, _ = _validate(df, predictors, target, taxonomies)
    if len(df) < folds:
        raise ValueError(f"folds: expected at most the number of records ({len(df)}), got {folds}")
    qid = _check_qid(qid, predictors)
    setups = {}
    for name, spec in tds.items():
        if not isinstance(name, str) or name in ("diffgen", "tds"):
            raise ValueError(f"tds: expected set-up names other than 'diffgen' and 'tds', got {name!r}")
        if not (isinstance(spec, (tuple, list)) and len(spec) == 2):
            raise TypeError(f"tds[{name!r}]: expected a pair (k, qid), got {spec!r}")
        setups[name] = (check_int(spec[0], f"tds[{name!r}] k", minimum=1), _check_qid(spec[1], predictors))
    if classes is not None:
        classes = _check_classes(classes)
    elif eps_values:
        classes = _derive_classes(df, target, "cross_validate")
    else:  # TDS only: no DP release, the class domain is not published under a budget
        classes = np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)
    full = _prepare(df, predictors, target, taxonomies, classes=classes)   # encoded once
    if eps_values:
        _check_h(full, h)
    parts = {r: np.array_split(np.random.default_rng(np.random.SeedSequence([seed, r])).permutation(len(df)),
                               folds) for r in range(repeats)}
    grid = [("diffgen", e, r, f) for e in eps_values for r in range(repeats) for f in range(folds)]
    if k is not None:
        grid += [("tds", None, r, f) for r in range(repeats) for f in range(folds)]
    for name in setups:
        grid += [(name, None, r, f) for r in range(repeats) for f in range(folds)]

    def task(i, m, e, r, f):
        if m == "diffgen":
            return (i, e, h, utility, seed, (r, f), None)
        kk, q = (k, qid) if m == "tds" else setups[m]
        return (i, e, kk, "tds", seed, (r, f), q)

    tasks = [task(i, *g) for i, g in enumerate(grid)]
    tasks.sort(key=lambda t: t[5])   # the tasks of one fold run together (one preparation)
    res = _run_tasks(tasks, {"full": full, "parts": parts, "tree_params": tree_params}, workers, progress,
                     "cross-validation")
    return pd.DataFrame([{"method": m, "eps": e, "repeat": r, "fold": f, "ca": res[i][1], "seconds": res[i][4]}
                         for i, (m, e, r, f) in enumerate(grid)])


def blow_up(df, n_records, columns, p_replace=0.5, *, rng) -> pd.DataFrame:
    """Figure 5's scalability data: each record plus alpha - 1 variations of it.

    A variation copies the record and replaces each attribute of ``columns`` with probability
    ``p_replace`` by a value drawn uniformly from that attribute's domain (the distinct values
    occurring in ``df``).  The original records come first; the table is cut at ``n_records``.
    ``rng`` (required, keyword-only): int or Generator.  (A test-data generator, not a DP
    function: the replacement values are the data's own.)
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    n_records = check_int(n_records, "n_records", minimum=1)
    columns = check_columns(df, columns, "columns")
    if len(set(columns)) != len(columns):
        raise ValueError(f"columns: expected distinct columns, got {columns}")
    _check_unique_used(df, columns, "df")
    p_replace = check_probability(p_replace, "p_replace")
    gen = as_generator(rng)
    alpha = -(-n_records // len(df))
    base = df.reset_index(drop=True)
    extra = n_records - len(base)
    if extra <= 0:
        return base.iloc[:n_records].copy()
    src = np.tile(np.arange(len(base)), alpha - 1)[:extra]
    out = base.iloc[src].reset_index(drop=True)
    for c in columns:
        dom = pd.unique(base[c])
        mask = gen.random(extra) < p_replace
        vals = out[c].to_numpy().copy()
        vals[mask] = dom[gen.integers(0, len(dom), size=int(mask.sum()))]
        out[c] = vals
    return pd.concat([base, out], ignore_index=True)


def scalability(df, sizes, predictors, target, taxonomies, eps=1.0, h=15, utility="max", *, rng,
                classes=None, progress=False) -> pd.DataFrame:
    """Figure 5: time DiffGen (from the raw DataFrame to the release) on blown-up tables.

    For each size ``n`` the table is :func:`blow_up` to ``n`` records (not timed), then one
    :func:`diffgen` run is timed with ``time.perf_counter``.  Returns ``records, seconds,
    rows, cells`` (``seconds`` varies from one execution to the next).  ``rng`` (required,
    keyword-only) gives the seed; ``classes`` is passed to :func:`diffgen` (omitted: read from
    ``df``, with a :class:`~privlib.PrivacyLeakWarning`).

    ``progress``: ``True`` shows tqdm's live bar, ``"text"`` a reproducible text bar on stderr
    (for notebooks checked by nbval), ``False`` none.
    """
    check_progress(progress)
    eps, h, utility = _check_diffgen_args(eps, h, utility)
    seed = _seed_of(rng)
    sizes = [check_int(n, "sizes", minimum=1) for n in _check_list(sizes, "sizes")]
    predictors, _ = _validate(df, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(df, target, "scalability")
    classes = _check_classes(classes)
    bar = progress_bar(len(sizes), "scalability", progress)
    rows = []
    for i, n in enumerate(sizes):
        big = blow_up(df, n, predictors, rng=np.random.default_rng(np.random.SeedSequence([seed, i, 0])))
        t0 = time.perf_counter()
        rel = diffgen(big, predictors, target, taxonomies, eps, h, utility, classes=classes,
                      rng=np.random.default_rng(np.random.SeedSequence([seed, i, 1])))
        rows.append({"records": len(big), "seconds": time.perf_counter() - t0, "rows": rel.n_rows,
                     "cells": rel.domain_cells})
        del big
        bar.update()
    bar.close()
    return pd.DataFrame(rows)


def adult_taxonomies(predictors=None, *, domains=None, hierarchy_set="tkde2007") -> dict:
    """Taxonomies of the Adult predictors for DiffGen and TDS.

    Categorical attributes: the taxonomy trees of the named set (via
    :func:`privlib.data.load_hierarchy`): ``"tkde2007"`` (default), the trees of Fung, Wang &
    Yu (IEEE TKDE 19(5), 2007) that DiffGen's Section 5 uses ("the same taxonomy trees"),
    ``data/adult/hierarchies_tkde2007/``; ``"book"``, the trees written for this book,
    ``data/adult/hierarchies/``.  Numerical attributes: the public domain ``[low, high)``
    given in ``domains`` (pass :data:`ADULT_DOMAINS` = ``privlib.data.adult_domains()``, the
    domains of Fung, Wang & Yu 2007); they are split dynamically.

    Parameters
    ----------
    predictors : list of str, optional
        Default: :data:`ADULT_PREDICTORS`.
    hierarchy_set : {"tkde2007", "book"}
        The set of categorical taxonomy trees.
    domains : dict attribute -> (low, high), optional
        Public numerical domains.  A numerical predictor missing from it falls back to
        ``[min, max + 1)`` of the values of its shipped hierarchy -- the range of the data
        (adult.data and adult.test for fnlwgt, capital_gain, capital_loss) -- with a
        :class:`~privlib.PrivacyLeakWarning` naming ``domains``.
    """
    from .data import ADULT_NUMERIC, HIERARCHY_SETS, load_hierarchy
    if not isinstance(hierarchy_set, str):
        raise TypeError(f"hierarchy_set: expected one of {list(HIERARCHY_SETS)}, got "
                        f"{type(hierarchy_set).__name__} {hierarchy_set!r}")
    check_in(hierarchy_set, "hierarchy_set", tuple(HIERARCHY_SETS))
    predictors = ADULT_PREDICTORS if predictors is None else _check_list(predictors, "predictors")
    unknown = [a for a in predictors if a not in ADULT_PREDICTORS]
    if unknown:
        raise ValueError(f"predictors: {unknown} are not Adult predictors; expected a subset of {ADULT_PREDICTORS}")
    if domains is None:
        domains = {}
    if not isinstance(domains, dict):
        raise TypeError(f"domains: expected a dict attribute -> (low, high), got {type(domains).__name__} {domains!r}")
    bad = [a for a in domains if a not in ADULT_NUMERIC]
    if bad:
        raise ValueError(f"domains: {bad} are not numerical Adult attributes; expected a subset of {list(ADULT_NUMERIC)}")
    out = {}
    fallback = []
    for a in predictors:
        if a in ADULT_NUMERIC:
            if a in domains:
                t = domains[a]
                if not (isinstance(t, (tuple, list)) and len(t) == 2):
                    raise TypeError(f"domains[{a!r}]: expected a pair (low, high), got {t!r}")
                lo, hi = check_finite(t[0], f"domains[{a!r}]"), check_finite(t[1], f"domains[{a!r}]")
                if not lo < hi:
                    raise ValueError(f"domains[{a!r}]: expected low < high, got {t!r}")
                out[a] = (lo, hi)
            else:
                leaves = np.asarray(load_hierarchy(a).leaves, dtype=float)
                out[a] = (float(leaves.min()), float(leaves.max()) + 1.0)
                fallback.append(a)
        else:
            out[a] = load_hierarchy(a, hierarchy_set)
    if fallback:
        warn_privacy_leak(f"domains: no public domain given for {fallback}; adult_taxonomies falls back to the "
                          f"data's min/max, which a DP release then publishes outside its budget. Pass "
                          f"domains=ADULT_DOMAINS (Fung, Wang & Yu 2007).")
    return out
