"""Spatial decompositions: Mondrian (k, l, t) and the differentially private kd-tree.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section II "Anonymization techniques": every
anonymization studied is a *spatial decomposition* -- a partition of the space of the
quasi-identifiers (QIs) into hyper-rectangles (the leaves), each published with a
histogram of the sensitive attribute (SA): exact for the syntactic models, noisy for
differential privacy.

* :func:`mondrian` -- LeFevre, DeWitt & Ramakrishnan's Mondrian (ICDE 2006): strict
  multidimensional median splits, a split being allowed only if neither child breaks the
  requested k (records per leaf) or l (ell-diversity of the SA); t (EMD of a node's SA
  distribution to the whole table's; Li, Li & Venkatasubramanian 2007) either stops the
  splitting of a node that is farther than t from the root (``t_rule="source"``, Section III
  of the source) or forbids any child farther than t (``t_rule="strict"``).
* :func:`dp_kdtree` -- the private kd-tree of Cormode et al., *Differentially private
  spatial decompositions* (ICDE 2012): split points chosen by the exponential-mechanism
  median, Laplace noise on the leaves' SA histograms; every mechanism call is recorded in
  a budget ledger.

QIs must be *ordered integer codes* (integer columns, or pandas ordered categoricals whose
codes are used); :func:`encode` turns categorical columns into such codes given an order.
Leaves are boxes of integer codes ``[lower, upper]`` (inclusive), and the leaves of a tree
partition the whole QI domain (the root box), so that every point of the domain belongs
to exactly one leaf.

Both builders are vectorised level by level: one stable sort per level and dimension,
``np.bincount`` for the SA histograms, no per-record Python loop.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validation import (as_generator, check_columns, check_epsilon, check_has_order, check_in, check_int,
                          check_no_nan, check_nonempty, check_probability, check_unique_columns,
                          warn_privacy_leak)
from .accounting import Ledger, LedgerEntry
from .closeness import emd_equal, emd_ordered
from .mechanisms import exponential_rows, laplace

#: Largest domain width (codes per QI) and largest combined sort key ``group * width + code``:
#: below 2**62 every sum of two such numbers still fits in int64.
_INT_LIMIT = 2 ** 62

__all__ = [
    "LedgerEntry",
    "Decomposition",
    "encode",
    "qi_codes",
    "mondrian",
    "dp_kdtree",
]


# ----------------------------------------------------------------------------- encoding
def encode(df: pd.DataFrame, orders: dict) -> pd.DataFrame:
    """Return a copy of ``df`` whose columns in ``orders`` are replaced by ordered integer codes.

    Parameters
    ----------
    df : pandas.DataFrame
    orders : dict
        ``{column: sequence of values in their order}``; value ``orders[c][i]`` becomes code ``i``.

    Raises
    ------
    ValueError
        If a column is unknown, or holds a value absent from its order (the value is named).
    """
    check_columns(df, list(orders), "orders")
    out = df.copy()
    for col, order in orders.items():
        order = list(order)
        if len(set(order)) != len(order):
            raise ValueError(f"orders[{col!r}]: expected distinct values, got duplicates in {order}")
        lookup = pd.Index(order)
        codes = lookup.get_indexer(df[col])
        if (codes < 0).any():
            bad = sorted(set(pd.Series(df[col])[codes < 0].astype(str)))[:5]
            raise ValueError(f"orders[{col!r}]: value(s) {bad} of column {col!r} are not in the given order")
        out[col] = codes.astype(np.int64)
    return out


def qi_codes(df: pd.DataFrame, qi, name: str = "qi") -> np.ndarray:
    """The QI columns of ``df`` as an ``n x d`` int64 array of ordered codes.

    Accepts integer (or boolean) columns, integer-valued floats and pandas *ordered*
    categoricals (their codes).  Anything else -- strings, unordered categoricals -- is
    not orderable and raises ``TypeError`` (use :func:`encode` first).
    """
    qi = check_columns(df, qi, name)
    if len(qi) == 0:
        raise ValueError(f"{name}: expected at least one quasi-identifier, got none")
    if len(set(qi)) != len(qi):
        raise ValueError(f"{name}: expected distinct quasi-identifiers, got {qi}")
    check_no_nan(df, "df", qi)
    cols = []
    for c in qi:
        s = df[c]
        if isinstance(s.dtype, pd.CategoricalDtype):
            if not s.dtype.ordered:
                raise TypeError(f"{name}: quasi-identifier {c!r} is an unordered categorical, not orderable; "
                                "give it an order with privlib.partition.encode or an ordered Categorical")
            cols.append(s.cat.codes.to_numpy(np.int64))
        elif pd.api.types.is_bool_dtype(s) or pd.api.types.is_integer_dtype(s):
            cols.append(s.to_numpy(np.int64))
        elif pd.api.types.is_float_dtype(s) and not np.all(np.isfinite(s.to_numpy())):
            raise ValueError(f"{name}: quasi-identifier {c!r} has infinite values; expected finite integer codes")
        elif pd.api.types.is_float_dtype(s) and np.all(np.mod(s.to_numpy(), 1) == 0):
            v = s.to_numpy()
            if np.abs(v).max(initial=0.0) >= _INT_LIMIT:
                raise ValueError(f"{name}: quasi-identifier {c!r} has values up to {np.abs(v).max()!r}, beyond the "
                                 f"integer codes privlib handles (|code| < 2**62)")
            cols.append(v.astype(np.int64))
        else:
            raise TypeError(f"{name}: quasi-identifier {c!r} has dtype {s.dtype}, not orderable integer codes; "
                            "encode it with privlib.partition.encode(df, {column: order})")
    return np.column_stack(cols)


def _domain(X: np.ndarray, qi: list, domain) -> tuple[np.ndarray, np.ndarray]:
    """The root box ``(lo, hi)`` (int64 arrays): ``domain`` checked, or the data's min and max.

    Bounds must be integers (integer-valued floats are accepted; ``0.5`` is refused, never
    truncated) and every width ``hi - lo + 1`` below 2**62 so that code arithmetic fits in int64.
    """
    if domain is None:
        lo, hi = X.min(axis=0), X.max(axis=0)
        _check_widths(lo.tolist(), hi.tolist(), qi)
        return lo, hi
    if not isinstance(domain, dict):
        raise TypeError(f"domain: expected a dict {{quasi-identifier: (low, high)}}, got {type(domain).__name__}")
    missing = [c for c in qi if c not in domain]
    if missing:
        raise ValueError(f"domain: expected a (low, high) pair for every quasi-identifier, missing {missing}")
    bounds = []
    for c in qi:
        pair = domain[c]
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise ValueError(f"domain[{c!r}]: expected a (low, high) pair of integer codes, got {pair!r}")
        try:
            bounds.append((check_int(pair[0], f"domain[{c!r}] low"), check_int(pair[1], f"domain[{c!r}] high")))
        except TypeError as exc:
            raise TypeError(f"domain: {exc}; quasi-identifiers are integer codes, so are their domains") from None
    _check_widths([b[0] for b in bounds], [b[1] for b in bounds], qi)
    lo = np.array([b[0] for b in bounds], dtype=np.int64)
    hi = np.array([b[1] for b in bounds], dtype=np.int64)
    if np.any(hi < lo):
        raise ValueError(f"domain: expected low <= high, got {dict(zip(qi, zip(lo.tolist(), hi.tolist())))}")
    outside = (X < lo) | (X > hi)
    if outside.any():
        j = int(np.argmax(outside.any(axis=0)))
        raise ValueError(f"domain: quasi-identifier {qi[j]!r} has values outside [{lo[j]}, {hi[j]}]")
    return lo, hi


def _check_widths(lo, hi, qi):
    for c, a, b in zip(qi, lo, hi):
        if abs(int(a)) >= _INT_LIMIT or abs(int(b)) >= _INT_LIMIT or int(b) - int(a) + 1 > _INT_LIMIT:
            raise ValueError(f"domain: quasi-identifier {c!r} spans [{a}, {b}]; expected bounds and a width "
                             "below 2**62 (rescale the codes, e.g. to seconds or days)")


def _sensitive(df, sa, sa_values=None):
    check_columns(df, [sa], "sa")
    check_no_nan(df, "df", [sa])
    s = df[sa]
    if sa_values is None:
        if isinstance(s.dtype, pd.CategoricalDtype):
            values = list(s.cat.categories)
        else:
            values = sorted(pd.unique(s).tolist())
    else:
        if isinstance(sa_values, (str, bytes)):
            raise TypeError(f"sa_values: expected a sequence of sensitive values, got the string {sa_values!r}")
        values = list(sa_values)
        if not values:
            raise ValueError("sa_values: expected at least one sensitive value, got none")
        if len(set(values)) != len(values):
            raise ValueError(f"sa_values: expected distinct values, got duplicates in {values[:20]}")
    idx = pd.Index(values).get_indexer(s)
    if (idx < 0).any():
        raise ValueError(f"sa_values: value(s) {sorted(set(s[idx < 0].astype(str)))[:5]} of {sa!r} are not listed")
    return tuple(values), idx.astype(np.int64)


# ----------------------------------------------------------------------------- Decomposition
@dataclass(frozen=True, eq=False)
class Decomposition:
    """A spatial decomposition: leaves (boxes over the QIs) with SA histograms.

    Attributes
    ----------
    qi : tuple of str
        Quasi-identifier columns, in the order of the box dimensions.
    sa : str
        Sensitive attribute.
    sa_values : tuple
        The SA values, in the order of the histogram columns.
    lower, upper : ndarray (leaves x d), int64
        Inclusive integer bounds of each leaf's box.
    histograms : ndarray (leaves x len(sa_values)), float
        SA counts per leaf: exact (Mondrian) or noisy, possibly negative (DP).
    domain_lower, domain_upper : ndarray (d,)
        The root box.
    tree_dim, tree_threshold, tree_left, tree_right, tree_leaf, tree_depth : ndarray
        The binary tree: node ``i`` splits on ``qi[tree_dim[i]]`` sending codes
        ``<= tree_threshold[i]`` to ``tree_left[i]``; ``tree_leaf[i]`` is the leaf index of
        a leaf node (-1 for an inner node).  Node 0 is the root.
    ledger : privlib.accounting.Ledger
        Privacy spend, one ``"path"`` entry per mechanism call (path = node ids from the
        root to the node the call reads); empty for the syntactic models.
    params : dict
        How the decomposition was built.
    """

    qi: tuple
    sa: str
    sa_values: tuple
    lower: np.ndarray
    upper: np.ndarray
    histograms: np.ndarray
    domain_lower: np.ndarray
    domain_upper: np.ndarray
    tree_dim: np.ndarray
    tree_threshold: np.ndarray
    tree_left: np.ndarray
    tree_right: np.ndarray
    tree_leaf: np.ndarray
    tree_depth: np.ndarray
    ledger: Ledger = field(default_factory=Ledger)
    params: dict = field(default_factory=dict)

    @property
    def n_leaves(self) -> int:
        return int(self.lower.shape[0])

    @property
    def height(self) -> int:
        """Depth of the deepest leaf (0 for a root-only tree)."""
        return int(self.tree_depth[self.tree_leaf >= 0].max())

    @property
    def counts(self) -> np.ndarray:
        """Leaf totals (row sums of :attr:`histograms`)."""
        return self.histograms.sum(axis=1)

    @property
    def widths(self) -> np.ndarray:
        """Number of integer codes of each leaf along each QI (leaves x d)."""
        return self.upper - self.lower + 1

    def assign(self, df: pd.DataFrame) -> np.ndarray:
        """Leaf index of every record of ``df`` (vectorised descent, one step per tree level).

        Raises ``ValueError`` if a record lies outside the root box.
        """
        X = qi_codes(df, list(self.qi))
        return self._assign_codes(X)

    def _assign_codes(self, X: np.ndarray) -> np.ndarray:
        outside = (X < self.domain_lower) | (X > self.domain_upper)
        if outside.any():
            j = int(np.argmax(outside.any(axis=0)))
            raise ValueError(f"df: quasi-identifier {self.qi[j]!r} has values outside the decomposition's domain "
                             f"[{self.domain_lower[j]}, {self.domain_upper[j]}]")
        node = np.zeros(X.shape[0], dtype=np.int64)
        rows = np.arange(X.shape[0])
        active = self.tree_leaf[node] < 0
        while active.any():
            r = rows[active]
            nd = node[r]
            go_left = X[r, self.tree_dim[nd]] <= self.tree_threshold[nd]
            node[r] = np.where(go_left, self.tree_left[nd], self.tree_right[nd])
            active = self.tree_leaf[node] < 0
        return self.tree_leaf[node]

    def leaf_paths(self) -> list:
        """For every leaf, the list of tree nodes from the root to it."""
        parent = np.full(self.tree_dim.shape[0], -1, dtype=np.int64)
        inner = np.flatnonzero(self.tree_leaf < 0)
        parent[self.tree_left[inner]] = inner
        parent[self.tree_right[inner]] = inner
        paths = []
        for node in np.flatnonzero(self.tree_leaf >= 0)[np.argsort(self.tree_leaf[self.tree_leaf >= 0])]:  # sort: unique keys
            path = [int(node)]
            while parent[path[-1]] >= 0:
                path.append(int(parent[path[-1]]))
            paths.append(path[::-1])
        return paths

    def path_spend(self) -> np.ndarray:
        """Sum of the ledger's eps along each root-to-leaf path (one value per leaf).

        Read from the ledger's ``"path"`` entries (:meth:`privlib.accounting.Ledger.path_costs`
        gives the same sums for the nodes that have entries); 0 for a syntactic model.
        """
        at: dict = {}
        for e in self.ledger:
            if e.composition == "path":
                at[e.path[-1]] = at.get(e.path[-1], 0.0) + e.eps
        return np.array([sum(at.get(n, 0.0) for n in path) for path in self.leaf_paths()])

    def leaves_frame(self) -> pd.DataFrame:
        """One row per leaf: its box (``<qi>_lo``, ``<qi>_hi``) and count."""
        data = {}
        for j, c in enumerate(self.qi):
            data[f"{c}_lo"] = self.lower[:, j]
            data[f"{c}_hi"] = self.upper[:, j]
        data["count"] = self.counts
        return pd.DataFrame(data)


class _Tree:
    """Growing arrays of a binary tree (internal helper of the builders)."""

    def __init__(self, d):
        self.dim, self.thr, self.left, self.right, self.depth = [], [], [], [], []
        self.lo, self.hi = [], []
        self.d = d

    def add(self, lo, hi, depth):
        """Add ``len(lo)`` new nodes; return their ids."""
        start = len(self.dim)
        m = lo.shape[0]
        self.dim.extend([-1] * m)
        self.thr.extend([0] * m)
        self.left.extend([-1] * m)
        self.right.extend([-1] * m)
        self.depth.extend([depth] * m)
        self.lo.append(lo)
        self.hi.append(hi)
        return np.arange(start, start + m)

    def split(self, nodes, dims, thrs, left, right):
        dim = np.asarray(self.dim)
        dim[nodes] = dims
        self.dim = dim.tolist()
        for arr_name, vals in (("thr", thrs), ("left", left), ("right", right)):
            arr = np.asarray(getattr(self, arr_name), dtype=np.int64)
            arr[nodes] = vals
            setattr(self, arr_name, arr.tolist())

    def finish(self, leaf_nodes, histograms, qi, sa, sa_values, dlo, dhi, ledger, params):
        n_nodes = len(self.dim)
        lo = np.concatenate(self.lo) if self.lo else np.zeros((0, self.d), np.int64)
        hi = np.concatenate(self.hi) if self.hi else np.zeros((0, self.d), np.int64)
        leaf_nodes = np.asarray(leaf_nodes, dtype=np.int64)
        order = np.argsort(leaf_nodes, kind="stable")
        leaf_nodes = leaf_nodes[order]
        histograms = np.asarray(histograms, dtype=float)[order]
        tree_leaf = np.full(n_nodes, -1, dtype=np.int64)
        tree_leaf[leaf_nodes] = np.arange(leaf_nodes.size)
        return Decomposition(
            qi=tuple(qi), sa=sa, sa_values=tuple(sa_values),
            lower=lo[leaf_nodes], upper=hi[leaf_nodes], histograms=histograms,
            domain_lower=np.asarray(dlo, np.int64), domain_upper=np.asarray(dhi, np.int64),
            tree_dim=np.asarray(self.dim, np.int64), tree_threshold=np.asarray(self.thr, np.int64),
            tree_left=np.asarray(self.left, np.int64), tree_right=np.asarray(self.right, np.int64),
            tree_leaf=tree_leaf, tree_depth=np.asarray(self.depth, np.int64),
            ledger=ledger if isinstance(ledger, Ledger) else Ledger(ledger), params=dict(params))


def _group_hist(group, values, n_groups, n_values, weights=None):
    return np.bincount(group * n_values + values, weights=weights,
                       minlength=n_groups * n_values).reshape(n_groups, n_values)


# ----------------------------------------------------------------------------- Mondrian
def _check_common(df, qi, sa):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    check_unique_columns(df, "df")
    qi = check_columns(df, qi, "qi")
    if not isinstance(sa, str) and not np.isscalar(sa):
        raise TypeError(f"sa: expected one column name, got {type(sa).__name__} {sa!r}")
    check_columns(df, [sa], "sa")
    if sa in qi:
        raise ValueError(f"sa: the sensitive attribute {sa!r} is also listed as a quasi-identifier")
    return qi


def mondrian(df: pd.DataFrame, qi, sa: str, k: int, l: int | None = None, t: float | None = None,
             max_height: int | None = None, *, l_kind: str = "distinct", distance: str | None = None,
             t_rule: str = "strict", domain: dict | None = None, sa_values=None) -> Decomposition:
    """Mondrian multidimensional partitioning with k-anonymity, ell-diversity and t-closeness.

    Strict median splits, level by level (LeFevre et al. 2006, Algorithm "Anonymize"):
    each node is split on the QI with the widest normalised range of its records (ties:
    the first listed), trying the next-widest when that split is not allowed, at the
    median code (the cut ``<= m`` or ``< m``, whichever is more balanced and allowed).  A
    split is *allowed* when both children

    * hold at least ``k`` records (k-anonymity),
    * are ell-diverse for ``l`` (``l_kind="distinct"``: at least ``l`` distinct SA values,
      the main reading; ``"frequency"``: no SA value has more than a ``1/l`` share, the
      "well-represented" reading that reproduces the source's "largest achievable l"),
    * with ``t_rule="strict"``: have EMD at most ``t`` between their SA distribution and the
      whole table's (``distance="equal"`` for a nominal SA, ``"ordered"`` for an ordinal one).

    With ``t_rule="source"`` the threshold ``t`` acts on the node itself, as in the source's
    Section III (the t-closeness variant built on k-anonymity): "nodes having EMD (compared
    to root) larger than the threshold t will not be split further".  A node whose EMD to the
    root exceeds ``t`` is a leaf; a node within ``t`` may be split even if a child then
    exceeds ``t`` (that child becomes a leaf).

    A node none of whose splits is allowed, or at depth ``max_height``, is a leaf.

    What the leaves guarantee: with ``t_rule="strict"`` every published leaf is within EMD
    ``t`` of the whole table (the release is t-close).  With ``t_rule="source"`` only the
    *internal* nodes are; a leaf may be farther than ``t`` from the root -- by at most what
    one median split can move a distribution -- so the release is **not** t-close in the sense
    of Li et al.  Use ``"source"`` to reproduce the source's Figures 3 and 5, ``"strict"`` to
    publish.

    Parameters
    ----------
    df : pandas.DataFrame
    qi : list of str
        Quasi-identifiers, ordered integer codes (see :func:`qi_codes`).
    sa : str
        Sensitive attribute (any hashable values; histogram columns in sorted order).
    k : int
        1 <= k <= len(df).
    l : int, optional
        1 <= l <= number of distinct SA values.
    t : float, optional
        EMD threshold in [0, 1].
    max_height : int, optional
        Largest depth of a leaf (root = 0).
    l_kind : {"distinct", "frequency"}
    distance : {"equal", "ordered"}, optional
        Ground distance of t; default "ordered" for a numeric SA, "equal" otherwise.  The
        ordered distance needs an order of the SA values: a numeric SA, an ordered
        categorical, or ``sa_values`` listing the values in order (a text SA is never sorted
        as text: "11K" < "3K").
    t_rule : {"strict", "source"}
        How ``t`` constrains the tree (see above): ``"strict"`` (default; every leaf within
        ``t``) or ``"source"`` (a node farther than ``t`` from the root is not split further;
        leaves may exceed ``t``).  Ignored when ``t`` is None.
    domain : dict, optional
        ``{qi: (low, high)}`` integer root box; default the data's min and max per QI (no
        warning: Mondrian is a syntactic model with no privacy budget).
    sa_values : sequence, optional
        The SA's value set (default: the sorted values present).

    Returns
    -------
    Decomposition
        Exact SA histograms; ``params`` records k, l, t, t_rule, l_kind, distance, max_height.

    Raises
    ------
    ValueError
        For k, l, t, l_kind, distance, t_rule or max_height out of range, and for
        ``distance="ordered"`` on a text SA without ``sa_values`` (and not an ordered
        categorical).

    Examples
    --------
    A node farther than ``t`` from the root stops (source) or is never created (strict):

    >>> df = pd.DataFrame({"x": range(8), "s": list("aaaabbbb")})
    >>> mondrian(df, ["x"], "s", 2, t=0.3, t_rule="source").n_leaves
    2
    >>> mondrian(df, ["x"], "s", 2, t=0.3, t_rule="strict").n_leaves
    1
    """
    qi = _check_common(df, qi, sa)
    n = len(df)
    k = check_int(k, "k", minimum=1)
    if k > n:
        raise ValueError(f"k: expected an integer <= the number of records ({n}), got {k}")
    X = qi_codes(df, qi)
    values, s = _sensitive(df, sa, sa_values)
    S = len(values)
    if l is not None:
        l = check_int(l, "l", minimum=1)
        if l > S:
            raise ValueError(f"l: expected at most the number of sensitive values ({S}), got {l}")
    check_in(l_kind, "l_kind", ("distinct", "frequency"))
    if t is not None:
        t = check_probability(t, "t")
    if distance is None:
        distance = "ordered" if pd.api.types.is_numeric_dtype(df[sa]) else "equal"
    check_in(distance, "distance", ("equal", "ordered"))
    check_in(t_rule, "t_rule", ("strict", "source"))
    if t is not None and distance == "ordered" and sa_values is None:
        check_has_order(df[sa], "sa_values")
    if max_height is not None:
        max_height = check_int(max_height, "max_height", minimum=0)
    dlo, dhi = _domain(X, qi, domain)
    d = X.shape[1]
    width = (dhi - dlo + 1).astype(np.int64)
    Z = X - dlo                                            # codes from 0
    root = np.bincount(s, minlength=S).astype(float)
    root_p = root / n
    emd = emd_ordered if distance == "ordered" else emd_equal
    child_t = t is not None and t_rule == "strict"      # strict: t on the children of a split
    node_t = t is not None and t_rule == "source"       # source: t on the node being split

    def ok(hist, cnt):
        good = cnt >= k
        if l is not None:
            if l_kind == "distinct":
                good &= (hist > 0).sum(axis=1) >= l
            else:
                good &= hist.max(axis=1) * l <= cnt
        if child_t:
            p = hist / np.maximum(cnt, 1)[:, None]
            p[cnt == 0] = root_p
            good &= emd(p, root_p) <= t + 1e-12
        return good

    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    node_of = np.zeros(n, dtype=np.int64)       # local index into the active list
    active = ids                                 # tree ids of the active nodes
    act_lo = dlo[None, :] - dlo                  # boxes in 0-based codes
    act_hi = dhi[None, :] - dlo
    rec = np.arange(n)                           # records still in active nodes
    leaf_nodes, leaf_hists = [], []
    depth = 0
    while active.size:
        m = active.size
        g = node_of[rec]
        srec = s[rec]
        cnt = np.bincount(g, minlength=m)
        hist = _group_hist(g, srec, m, S).astype(float)
        can = np.ones(m, dtype=bool) if max_height is None else np.full(m, depth < max_height)
        if node_t:      # "nodes having EMD (compared to root) larger than t will not be split further"
            can &= emd(hist / np.maximum(cnt, 1)[:, None], root_p) <= t + 1e-12
        starts = np.concatenate([[0], np.cumsum(cnt)[:-1]])
        best_dim = np.full(m, -1, dtype=np.int64)
        best_thr = np.zeros(m, dtype=np.int64)
        best_rank = np.full(m, d + 1, dtype=np.int64)
        cand_thr = np.zeros((m, d), dtype=np.int64)
        cand_ok = np.zeros((m, d), dtype=bool)
        spread = np.zeros((m, d))
        for j in range(d):
            W = int(width[j])
            zj = Z[rec, j]
            if m * W < _INT_LIMIT:                 # one int64 key (node, code): fits, checked in Python ints
                base = np.arange(m, dtype=np.int64) * W
                sk = np.sort(g * W + zj)
                at = lambda pos: sk[pos] - base        # noqa: E731 - the codes at sorted positions
            else:                                  # wide codes (e.g. nanosecond timestamps): no combined key
                sz = zj[np.lexsort((zj, g))]
                at = lambda pos: sz[pos]               # noqa: E731
            vmin = at(starts)
            vmax = at(starts + cnt - 1)
            spread[:, j] = (vmax - vmin) / max(W - 1, 1)
            med = at(starts + (cnt - 1) // 2)
            side_le = zj <= med[g]
            side_lt = zj < med[g]
            n_le = np.bincount(g[side_le], minlength=m)    # counted from the records themselves
            n_lt = np.bincount(g[side_lt], minlength=m)
            h_le = _group_hist(g, srec, m, S, side_le.astype(float))
            h_lt = _group_hist(g, srec, m, S, side_lt.astype(float))
            ok_le = (n_le > 0) & (n_le < cnt) & ok(h_le, n_le) & ok(hist - h_le, cnt - n_le)
            ok_lt = (n_lt > 0) & (n_lt < cnt) & ok(h_lt, n_lt) & ok(hist - h_lt, cnt - n_lt)
            bal_le = np.abs(2 * n_le - cnt)
            bal_lt = np.abs(2 * n_lt - cnt)
            use_lt = ok_lt & (~ok_le | (bal_lt < bal_le))
            cand_ok[:, j] = (ok_le | ok_lt) & can
            cand_thr[:, j] = np.where(use_lt, med - 1, med)
        # preference: widest normalised spread first (stable: first listed on ties)
        order = np.argsort(-spread, axis=1, kind="stable")
        for r in range(d):
            j = order[:, r]
            okj = cand_ok[np.arange(m), j] & (best_dim < 0)
            best_dim[okj] = j[okj]
            best_thr[okj] = cand_thr[np.arange(m), j][okj]
            best_rank[okj] = r
        split = best_dim >= 0
        # leaves
        leaf_idx = np.flatnonzero(~split)
        leaf_nodes.extend(active[leaf_idx].tolist())
        leaf_hists.append(hist[leaf_idx])
        if not split.any():
            break
        sp = np.flatnonzero(split)
        dims = best_dim[sp]
        thr = best_thr[sp]
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        rows = np.arange(sp.size)
        hi_l[rows, dims] = thr
        lo_r[rows, dims] = thr + 1
        depth += 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth)
        tree.split(active[sp], dims, thr + dlo[dims], left_ids, right_ids)
        # move records: new local index = 2 * position-in-sp + (right)
        pos = np.full(m, -1, dtype=np.int64)
        pos[sp] = np.arange(sp.size)
        keep = split[g]
        rec = rec[keep]
        g2 = pos[g[keep]]
        right = Z[rec, dims[g2]] > thr[g2]
        node_of[rec] = 2 * g2 + right
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    params = dict(model="mondrian", k=k, l=l, t=t, t_rule=t_rule if t is not None else None, l_kind=l_kind,
                  distance=distance, max_height=max_height, n=n)
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)


# ----------------------------------------------------------------------------- DP kd-tree
#: ledger detail of a leaf histogram (the node is the last id of the entry's path)
_LEAF_DETAIL = "leaf histogram: one Laplace count per SA value, disjoint cells (parallel)"


def _exponential_rows(utilities, valid, eps, sensitivity, gen):
    """One exponential-mechanism draw per row over the row's ``valid`` candidates.

    A thin wrapper of :func:`privlib.mechanisms.exponential_rows`: the candidates outside
    ``valid`` get utility ``-inf`` (probability 0).  The dense reference of
    :func:`_median_segments` (memory: rows x candidates).
    """
    return exponential_rows(np.where(valid, utilities, -np.inf), eps, sensitivity, rng=gen)


def _median_segments(z, k, K, lo, hi):
    """The candidate cut points of ``K`` nodes as runs of equal utility (piecewise constant).

    Node ``i`` holds the records ``k == i`` with codes ``z`` (0-based) and cuts
    ``c in [lo[i], hi[i] - 1]`` (left child: codes ``<= c``); the median utility
    ``-| #{x <= c} - n_i / 2 |`` only changes at the records' distinct codes, so the cuts
    fall into at most ``1 + distinct codes`` runs: ``[lo, u_1 - 1]`` (count 0),
    ``[u_r, u_{r+1} - 1]`` (count ``C_r``, the records ``<= u_r``), ..., ``[u_last, hi - 1]``.

    Returns
    -------
    seg_node, seg_start, seg_len, seg_util : ndarrays (runs,)
        Runs of positive length only, ordered by node; memory O(records + nodes), not
        O(nodes x domain width).
    """
    cnt = np.bincount(k, minlength=K)
    width = int(hi.max(initial=0)) + 1 if K else 1         # codes are 0-based: z <= hi < width
    if K * width <= max(4 * k.size, 1 << 16):
        # narrow domain: a (nodes x codes) count table no larger than a few times the records
        table = np.bincount(k * width + z, minlength=K * width).reshape(K, width)
        pk, pv = np.nonzero(table)                         # distinct (node, code) pairs, sorted
        C = np.cumsum(table, axis=1)[pk, pv]               # records <= pv in the node
    else:
        if K * width < _INT_LIMIT:                         # one int64 sort key (checked in Python ints)
            order = np.argsort(k * width + z, kind="stable")
        else:
            order = np.lexsort((z, k))                    # by node, then code (stable)
        k, z = k[order], z[order]
        first = np.ones(k.size, dtype=bool)
        first[1:] = (k[1:] != k[:-1]) | (z[1:] != z[:-1])
        starts = np.flatnonzero(first)
        pk, pv = k[starts], z[starts]                      # distinct (node, code) pairs, sorted
        last = np.append(starts[1:], k.size) - 1           # last record of each pair
        C = last + 1 - np.searchsorted(k, pk, side="left")     # records <= pv in the node
    pk = pk.astype(np.int64)
    pv = pv.astype(np.int64)
    same = np.zeros(pk.size, dtype=bool)
    same[:-1] = pk[1:] == pk[:-1]
    nxt = np.append(pv[1:], 0)
    end = np.where(same, nxt - 1, hi[pk] - 1)
    first_end = hi - 1                                     # a node without records: one run
    has = cnt > 0
    first_code = np.zeros(K, dtype=np.int64)
    first_code[pk[::-1]] = pv[::-1]                        # smallest code of each node
    first_end = np.where(has, first_code - 1, first_end)
    seg_node = np.concatenate([np.arange(K, dtype=np.int64), pk])
    seg_start = np.concatenate([lo, pv])
    seg_end = np.concatenate([first_end, end])
    seg_util = -np.abs(np.concatenate([np.zeros(K), C.astype(float)]) - cnt[seg_node] / 2.0)
    seg_len = seg_end - seg_start + 1
    keep = seg_len > 0
    order = np.argsort(seg_node[keep], kind="stable")
    return (seg_node[keep][order], seg_start[keep][order], seg_len[keep][order], seg_util[keep][order])


def _segment_probabilities(seg_node, seg_len, seg_util, K, eps, sensitivity=1.0):
    """Probability of each run under the exponential mechanism: ``len * exp(eps u / (2 du))``
    normalised within its node (every cut of a run has probability ``p_run / len``)."""
    logw = eps * seg_util / (2.0 * sensitivity) + np.log(seg_len.astype(float))
    top = np.full(K, -np.inf)
    np.maximum.at(top, seg_node, logw)
    w = np.exp(logw - top[seg_node])
    return w / np.bincount(seg_node, weights=w, minlength=K)[seg_node]


def _private_medians(z, k, K, lo, hi, eps, gen):
    """One exponential-mechanism median per node, drawn run by run (see :func:`_median_segments`).

    Exactly the distribution of the dense draw over every integer cut
    (:func:`privlib.mechanisms.exponential_rows` on ``-|#{x <= c} - n/2|``, sensitivity 1):
    a run is chosen with weight ``length * exp(eps u / 2)`` by the Gumbel-max trick
    (:func:`privlib.mechanisms.exponential_rows`' method), then a cut uniformly inside it.
    """
    seg_node, seg_start, seg_len, seg_util = _median_segments(z, k, K, lo, hi)
    score = eps * seg_util / 2.0 + np.log(seg_len.astype(float)) + gen.gumbel(size=seg_node.size)
    order = np.lexsort((-score, seg_node))                 # best run of each node first
    best = order[np.searchsorted(seg_node[order], np.arange(K), side="left")]
    return seg_start[best] + gen.integers(0, seg_len[best])


def dp_kdtree(df: pd.DataFrame, qi, sa: str, eps: float, height: int, *, rng, median_fraction: float = 0.3,
              domain: dict | None = None, sa_values=None) -> Decomposition:
    """A differentially private kd-tree (Cormode et al. ICDE 2012) with noisy leaf histograms.

    Structure: a complete binary tree of depth ``height``; the node at depth ``i`` splits on
    the QIs in round-robin order (``qi[i mod d]``, skipping a QI whose range in the node is
    a single code; a node whose box is a single cell stops early).  The shape depends only
    on public information (the domain, the height) and on the private split points.

    Private median (the exponential-mechanism median of Cormode et al. 2012, Section 4.1,
    on a discrete domain): the candidates are the integer cut points ``c`` of the node's
    range ``[lo, hi - 1]`` along the split QI (left child ``<= c``); candidate ``c`` has
    utility ``-| #{x <= c} - n_node / 2 |`` (sensitivity 1: adding or removing one record
    changes it by at most 1/2) and is drawn from the exponential mechanism's distribution
    (:func:`privlib.mechanisms.exponential_probabilities`) with ``eps_median``.  The utility
    is constant between consecutive record codes, so the draw picks such a run of cuts with
    weight ``length * exp(eps_median * u / 2)`` (Gumbel-max, every node of a level at once)
    and then a cut uniformly inside it: the same distribution in O(records + nodes) memory,
    whatever the domain's width.

    Budget split (recorded in :attr:`Decomposition.ledger`, a :class:`privlib.accounting.Ledger`
    of ``"path"`` entries whose path is the node ids from the root; checked against ``eps``):

    * ``eps_median = median_fraction * eps / height`` per split, on each of the ``height``
      levels of inner nodes -- sequential composition along a root-to-leaf path, parallel
      across the disjoint nodes of one level;
    * ``eps_count = eps - (median budget spent on the leaf's path)`` for the leaf: Laplace
      noise of scale ``1 / eps_count`` on each of the leaf's SA counts (a record falls in
      one cell of one leaf: sensitivity 1, parallel over cells, one ledger entry per leaf).
      A leaf that stopped early therefore gets the unspent median budget too, so every path
      spends exactly ``eps``.

    Parameters
    ----------
    df : pandas.DataFrame
    qi : list of str
        Ordered integer codes (see :func:`qi_codes`).
    sa : str
    eps : float
        Total budget, > 0.
    height : int
        Depth of the leaves, 0 <= height <= 30 (``2**height`` leaves at most).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    median_fraction : float in [0, 1)
        Share of ``eps`` spent on split points (0.3 by default; 0 gives a tree of exact
        domain midpoints, a data-independent quadtree-like split).
    domain : dict, optional
        ``{qi: (low, high)}`` integer codes, from public knowledge (a data dictionary, a
        hierarchy).  Without it the root box is the data's min and max, published outside the
        budget: a :class:`privlib.PrivacyLeakWarning` says so at every call.
    sa_values : sequence, optional
        The public SA value set.  Without it the values present in the data are used (and
        published as the histogram columns): a :class:`privlib.PrivacyLeakWarning` says so.

    Returns
    -------
    Decomposition
        Noisy (float, possibly negative) leaf histograms and the budget ledger.

    Raises
    ------
    ValueError, TypeError
        Bad arguments (named in the message); ``domain`` bounds that are not integers.
    """
    qi = _check_common(df, qi, sa)
    eps = check_epsilon(eps)
    height = check_int(height, "height", minimum=0, maximum=30)
    median_fraction = check_probability(median_fraction, "median_fraction", high_open=True)
    gen = as_generator(rng)
    X = qi_codes(df, qi)
    values, s = _sensitive(df, sa, sa_values)
    dlo, dhi = _domain(X, qi, domain)
    if domain is None:
        warn_privacy_leak("dp_kdtree: no public `domain` was given, so the root box is the data's min and max of "
                          "every quasi-identifier, published outside the privacy budget; pass "
                          "domain={quasi-identifier: (low, high)} from public knowledge")
    if sa_values is None:
        warn_privacy_leak("dp_kdtree: no public `sa_values` was given, so the set of sensitive values present in the "
                          "data is published (the histogram columns) outside the privacy budget; pass sa_values=")
    S = len(values)
    n, d = X.shape
    Z = X - dlo
    eps_med = median_fraction * eps / height if height > 0 and median_fraction > 0 else 0.0

    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    active = ids
    paths = [(int(ids[0]),)]                                # node ids from the root, per active node
    act_lo = np.zeros((1, d), np.int64)
    act_hi = (dhi - dlo)[None, :].astype(np.int64)
    spent = np.zeros(1)
    node_of = np.zeros(n, dtype=np.int64)
    ledger = Ledger()
    leaf_nodes, leaf_hists = [], []
    for depth in range(height + 1):
        m = active.size
        # choose the split dimension: round robin from qi[depth % d], skipping single-code ranges
        widths = act_hi - act_lo
        dims = np.full(m, -1, dtype=np.int64)
        if depth < height:
            for r in range(d):
                j = (depth + r) % d
                pick = (dims < 0) & (widths[:, j] > 0)
                dims[pick] = j
        split = dims >= 0
        # leaves: noisy histograms
        leaf_idx = np.flatnonzero(~split)
        if leaf_idx.size:
            true_hist = _group_hist(node_of, s, m, S)[leaf_idx]
            eps_leaf = eps - spent[leaf_idx]
            ledger = ledger + Ledger.from_calls("laplace", eps_leaf, "path", detail=_LEAF_DETAIL,
                                                paths=[paths[li] for li in leaf_idx.tolist()])
            noisy = np.empty(true_hist.shape)
            for e in np.unique(eps_leaf):                        # usually one group: all leaves at depth `height`
                rows = eps_leaf == e
                noisy[rows] = laplace(true_hist[rows], float(e), 1.0, rng=gen).reshape(-1, S)
            leaf_nodes.extend(active[leaf_idx].tolist())
            leaf_hists.append(noisy)
        if not split.any():
            break
        sp = np.flatnonzero(split)
        thr = np.zeros(sp.size, dtype=np.int64)
        for j in np.unique(dims[sp]):
            sel = sp[dims[sp] == j]
            lo, hi = act_lo[sel, j], act_hi[sel, j]
            if eps_med > 0:
                local = np.full(m, -1, dtype=np.int64)
                local[sel] = np.arange(sel.size)
                recs = np.flatnonzero(local[node_of] >= 0)
                chosen = _private_medians(Z[recs, j], local[node_of[recs]], sel.size, lo, hi, eps_med, gen)
                detail = f"private median on {qi[j]!r} (depth {depth})"
                ledger = ledger + Ledger.from_calls("exponential", np.full(sel.size, eps_med), "path",
                                                    paths=[paths[node] for node in sel.tolist()], detail=detail)
            else:
                chosen = (lo + hi - 1) // 2
            thr[np.searchsorted(sp, sel)] = chosen
        dsp = dims[sp]
        rows = np.arange(sp.size)
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        hi_l[rows, dsp] = thr
        lo_r[rows, dsp] = thr + 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth + 1)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth + 1)
        tree.split(active[sp], dsp, thr + dlo[dsp], left_ids, right_ids)
        pos = np.full(m, -1, dtype=np.int64)
        pos[sp] = rows
        g2 = pos[node_of]
        # every record is in a split node or in a leaf; only those in split nodes move on
        keep = g2 >= 0
        new_node = np.full(n, -1, dtype=np.int64)
        right = Z[np.arange(n), dsp[np.maximum(g2, 0)]] > thr[np.maximum(g2, 0)]
        new_node[keep] = 2 * g2[keep] + right[keep]
        spent = np.repeat(spent[sp] + eps_med, 2)
        paths = [paths[i] + (int(c),) for i, pair in zip(sp.tolist(), zip(left_ids.tolist(), right_ids.tolist()))
                 for c in pair]
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
        # drop records whose node became a leaf
        Z, s, X = Z[keep], s[keep], X[keep]
        node_of = new_node[keep]
        n = node_of.size
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    ledger.check(eps)
    params = dict(model="dp_kdtree", eps=eps, height=height, median_fraction=median_fraction, n=len(df))
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, ledger, params)
