"""The release type, cuts and their application (Algorithm 1, Lines 1, 8 and 12; Table 1)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._validation import check_columns
from ..accounting import Ledger
from ..hierarchy import HierarchyError
from ._encoding import _check_unique_used, _interval_label, _prepare


@dataclass(frozen=True)
class Specialization:
    """One specialization ``v -> child(v)`` (Algorithm 1, Line 8).

    Parameters
    ----------
    iteration : int
        The iteration of Lines 6-11 (from 1).
    attribute : str
        The specialized predictor.
    value : str
        The cut value specialized (taxonomy node, or interval label ``"[lo-hi)"``).
    children : tuple of str
        The values that replace it in the cut.
    split : float or None
        The split point of a numerical value; None for a categorical one.
    score : float
        The candidate's score when it was chosen.

    Examples
    --------
    >>> s = Specialization(1, "age", "[18-65)", ("[18-40)", "[40-65)"), 40.0, 5.0)
    >>> s.children
    ('[18-40)', '[40-65)')
    """

    iteration: int
    attribute: str
    value: str
    children: tuple
    split: float | None
    score: float


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

    Releases are made by :func:`diffgen` and :func:`tds`, not built by hand.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.diffgen import tds
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    >>> df = pd.DataFrame({"job": ["Eng", "Law", "Dan", "Wri"] * 2, "age": [30, 50, 25, 60] * 2,
    ...                    "class": ["Y", "Y", "N", "N", "Y", "N", "N", "N"]})
    >>> rel = tds(df, ["job", "age"], "class", {"job": job, "age": (18, 65)}, k=2)
    >>> rel.cuts["job"], rel.n_records
    (('Eng', 'Law', 'Art'), 8)
    >>> rel.generalize(df.iloc[[0, 2]])["job"].tolist()
    ['Eng', 'Art']
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
        """Number of released rows (cells with a positive count)."""
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

    def encode(self, df: pd.DataFrame) -> np.ndarray:
        """Index of every record's generalized value in ``cuts``, per predictor.

        Parameters
        ----------
        df : pandas.DataFrame
            Records holding every predictor (e.g. the test set).

        Returns
        -------
        numpy.ndarray
            ``(len(df), len(predictors))`` int64 codes into ``cuts[predictor]``.

        Raises
        ------
        privlib.hierarchy.HierarchyError
            A value outside the taxonomy or the public domain.
        TypeError, ValueError
            ``df`` not a DataFrame, a missing or duplicated predictor column.
        """
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
        check_columns(df, list(self.predictors), "predictors")
        _check_unique_used(df, list(self.predictors), "df")
        out = np.empty((len(df), len(self.predictors)), dtype=np.int64)
        for j, a in enumerate(self.attrs):
            x = a.encode(df[a.name], "df")
            out[:, j] = _code_under_cut(a, x, self.cut_nodes[j])
        return out

    def generalize(self, df: pd.DataFrame) -> pd.DataFrame:
        """Generalize records (e.g. the test set) with the release's cuts (Section 5).

        Parameters
        ----------
        df : pandas.DataFrame
            Records holding every predictor; other columns are kept unchanged.

        Returns
        -------
        pandas.DataFrame
            A copy of ``df`` whose predictors hold their cut values.

        Raises
        ------
        privlib.hierarchy.HierarchyError, TypeError, ValueError
            As :meth:`encode`.
        """
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
        if s > 1:   # an attribute at its topmost value has code 0: key * 1 + 0
            key = key * s + _code_under_cut(a, x, c)
    return key, sizes, total


def _build_release(prep, cut_nodes, cells, counts, codes=None, labels=True, **kw) -> Release:
    """Release from flat cell indices (group x class), or from ``codes``: rows of per-predictor
    cut indices followed by the class index.  ``labels=False`` (internal sweeps, which read
    only the codes) leaves ``cuts`` and ``splits`` empty: formatting the labels of a raw
    numerical cut (one interval per distinct value) costs more than the release."""
    K = prep.K
    sizes = [len(c) if a.kind == "categorical" else len(c) - 1 for a, c in zip(prep.attrs, cut_nodes)]
    if codes is not None:
        codes = np.asarray(codes, dtype=np.int64)
        cls = codes[:, -1]
        codes = np.ascontiguousarray(codes[:, :-1])
    else:
        cells = np.asarray(cells, dtype=np.int64)
        cls = cells % K
        # np.unravel_index(cells // K, sizes) in integers, skipping the attributes of one value (code
        # 0); (d, rows) C-ordered, exposed as its (rows, d) transpose: no strided copy
        g = cells // K
        out = np.zeros((len(sizes), len(cells)), dtype=np.int64)
        for j in range(len(sizes) - 1, -1, -1):
            if sizes[j] > 1:
                g, out[j] = np.divmod(g, sizes[j])
        codes = out.T
    cuts = {a.name: _cut_labels(a, c) for a, c in zip(prep.attrs, cut_nodes)} if labels else {}
    splits = {a.name: tuple(float(s) for s in c[1:-1]) for a, c in zip(prep.attrs, cut_nodes)
              if a.kind == "numerical"} if labels else {}
    return Release(tuple(prep.predictors), prep.target, tuple(prep.classes), tuple(prep.attrs),
                   tuple(tuple(c) for c in cut_nodes), cuts, splits, codes, cls.astype(np.int64),
                   np.asarray(counts, dtype=np.int64), **kw)


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


def apply_cut(df: pd.DataFrame, predictors: Sequence[str], taxonomies: Mapping, *,
              cuts: Mapping) -> pd.DataFrame:
    """Generalize ``df`` to the given cuts (e.g. Table 1.b of Mohammed et al. 2011).

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table.
    predictors : list of str
        The attributes to generalize.
    taxonomies : dict
        Every predictor -> :class:`~privlib.hierarchy.Hierarchy` or public domain ``(low, high)``.
    cuts : dict
        Predictor -> its cut: a list of taxonomy values (categorical) or of split points
        (numerical); a predictor not listed stays at its topmost value.

    Returns
    -------
    pandas.DataFrame
        A copy of ``df`` with the predictors generalized (intervals as ``"[lo-hi)"``).

    Raises
    ------
    ValueError, TypeError, privlib.hierarchy.HierarchyError
        A cut that is not a cut (a leaf covered twice or not at all), an unknown value or
        attribute, a split point outside the domain.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    >>> df = pd.DataFrame({"job": ["Eng", "Dan"], "age": [34, 50]})
    >>> apply_cut(df, ["job", "age"], {"job": job, "age": (18, 65)}, cuts={"job": ["Pro", "Art"], "age": [40]})
       job      age
    0  Pro  [18-40)
    1  Art  [40-65)
    """
    prep, cut_nodes, _ = _cuts_release(df, predictors, None, taxonomies, cuts)
    out = df.copy()
    for j, a in enumerate(prep.attrs):
        labels = np.asarray(_cut_labels(a, cut_nodes[j]), dtype=object)
        out[a.name] = labels[_code_under_cut(a, prep.raw[j], cut_nodes[j])]
    return out


def contingency_table(df: pd.DataFrame, predictors: Sequence[str], taxonomies: Mapping, *,
                      cuts: Mapping, target: str | None = None) -> pd.DataFrame:
    """Exact count of every combination of cut values, zeros included (Table 1.c and 1.d).

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table.
    predictors : list of str
        The attributes.
    taxonomies : dict
        Every predictor -> :class:`~privlib.hierarchy.Hierarchy` or public domain ``(low, high)``.
    cuts : dict
        Predictor -> cut, as in :func:`apply_cut`.
    target : str, optional
        The class attribute: one more dimension (the equivalence groups of Line 12).

    Returns
    -------
    pandas.DataFrame
        One row per combination (in cut order, the last attribute varying fastest) and a
        ``count`` column.

    Raises
    ------
    ValueError, TypeError, privlib.hierarchy.HierarchyError
        As :func:`apply_cut`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    >>> df = pd.DataFrame({"job": ["Eng", "Law", "Dan"], "age": [34, 50, 20]})
    >>> contingency_table(df, ["job", "age"], {"job": job, "age": (18, 65)},
    ...                   cuts={"job": ["Pro", "Art"], "age": [40]})
       job      age  count
    0  Pro  [18-40)      1
    1  Pro  [40-65)      1
    2  Art  [18-40)      1
    3  Art  [40-65)      0
    """
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


