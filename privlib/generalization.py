"""Full-domain generalization and the lattice search of the t-closeness experiment.

Li, Li & Venkatasubramanian (ICDE 2007), slide "Experiment": the Adult data (30,162
records), seven quasi-identifiers generalized along their hierarchies, and five privacy
requirements compared for efficiency (Figure 3) and data quality (Figure 4).  The original
used *full-domain generalization* searched with the Incognito algorithm (LeFevre, DeWitt &
Ramakrishnan 2005): every value of attribute ``a`` is replaced by its ancestor at one level
``L_a`` of ``a``'s hierarchy, and the *generalization lattice* is the set of level vectors
``(L_1, ..., L_d)``, ordered componentwise.

The search (:func:`search`) is exact.  Every privacy requirement used here is monotone --
if a node satisfies it, so does every more general node (for t-closeness this is the
slide "Properties of t-closeness", generalization property; for k-anonymity and the three
l-diversities it is classical) -- so most nodes can be decided without touching the data:

* ``direction="bottom-up"``: Incognito's breadth-first traversal from the bottom, with its
  generalization property (a node with a satisfying direct specialization is *tagged*
  satisfying) and its *rollup* (an evaluated node's frequency set is computed from the
  smaller frequency set of a direct specialization, not from the data);
* ``direction="top-down"``: the same traversal from the root, with the contrapositive (a
  node with a failing direct generalization is tagged failing).  With many QIs and strict
  requirements almost every node fails, so bottom-up evaluates nearly the whole lattice
  while top-down evaluates the few satisfying nodes and their boundary -- for the seven
  Adult QIs (2,880 nodes, k = l = 5) about 2,800 evaluations against 8 to 104.

Both return every minimal satisfying node, from which the best node under a data-quality
metric is chosen.  Incognito's other pruning, the a-priori iteration over subsets of the
QIs, is not implemented.

Data-quality metrics (slide "Experimental Results", Figure 4):

* **discernibility metric** (Bayardo & Agrawal 2005): ``DM = sum over classes |E|^2``
  (no record is suppressed here);
* **average group size** ``n / number of classes``; Figure 4(b) reports its minimum over
  the generalizations that satisfy the requirement.

Everything is vectorised: QI values are encoded once as integer leaf codes; a node is
evaluated by generalizing with lookup arrays, forming one mixed-radix integer key per
distinct QI row, grouping with ``np.bincount``/``np.unique``, and counting sensitive values
with one ``np.bincount`` per sensitive attribute.  The mixed-radix key never overflows
int64: when the product of the level widths would pass ``2**62`` the partial key is
re-factorised (``np.unique(return_inverse=True)``) so that it stays below the number of rows.
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import sparse

from ._validation import (check_array, check_columns, check_in, check_int, check_no_nan, check_nonempty,
                          check_positive, check_probability, check_unique_columns)
from .closeness import emd_equal, emd_hierarchical, emd_ordered
from .hierarchy import Hierarchy
from .models import check_l

__all__ = [
    "Encoded",
    "encode",
    "lattice",
    "class_ids",
    "generalize_table",
    "generalize_to_cut",
    "KAnonymityReq",
    "LDiversityReq",
    "TClosenessReq",
    "evaluate",
    "SearchResult",
    "search",
    "discernibility",
]


# ---------------------------------------------------------------------------- encoding
@dataclass(frozen=True)
class Encoded:
    """A table with its QIs encoded for full-domain generalization.

    The records are collapsed to their ``u`` distinct QI rows (``rows``, leaf codes), with
    the number of records of each (``weight``) and, for every sensitive attribute, a
    ``u x m`` matrix of sensitive-value counts (``sa_counts``).
    """

    qi: tuple
    hierarchies: tuple
    rows: np.ndarray                  # u x d leaf codes
    weight: np.ndarray                # u
    lookups: tuple                    # per attribute: tuple over levels of arrays leaf code -> node id
    widths: tuple                     # per attribute: tuple over levels of the number of node ids
    sa_counts: Mapping = field(default_factory=dict)   # sa -> (row, col, count) of the u x m counts
    sa_domain: Mapping = field(default_factory=dict)   # sa -> tuple of values
    n: int = 0
    base: object = None               # frequency set of the bottom node (filled by encode)
    sa_ordered: Mapping = field(default_factory=dict)  # sa -> True when its domain order is meaningful

    @property
    def heights(self) -> tuple:
        return tuple(len(lk) - 1 for lk in self.lookups)


def _level_lookup(h: Hierarchy):
    lookups, widths = [], []
    for level in range(h.height + 1):
        anc = [h.ancestor(v, level) for v in h.leaves]
        codes, uniq = pd.factorize(pd.Series(anc, dtype=object))
        lookups.append(codes.astype(np.int64))
        widths.append(len(uniq))
    return tuple(lookups), tuple(widths)


def encode(df: pd.DataFrame, qi: Sequence[str], hierarchies: Mapping, sensitive: Sequence[str] = (),
           sa_domains: Mapping | None = None) -> Encoded:
    """Encode the QIs of ``df`` as leaf codes of their hierarchies.

    Parameters
    ----------
    df : DataFrame
    qi : list of str
    hierarchies : mapping column -> Hierarchy
        One per QI; every value must be a leaf (else :class:`~privlib.hierarchy.HierarchyError`
        naming the value and the attribute).
    sensitive : list of str
        Sensitive attributes whose counts are carried along.
    sa_domains : mapping column -> sequence, optional
        Domain (order) of a sensitive attribute; default the sorted distinct values (the
        categories of an ordered categorical).  For a hierarchical distance pass the
        hierarchy's leaves; for an ordered distance on a non-numeric attribute pass its
        order (a string domain is not ordered by its spelling: ``"11K" < "3K"``).
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_unique_columns(df, "df")
    qi = check_columns(df, qi, "qi")
    if not qi:
        raise ValueError("qi: expected at least one quasi-identifier column, got none")
    if len(set(qi)) != len(qi):
        raise ValueError(f"qi: expected distinct column names, got {qi}")
    if isinstance(sensitive, str):
        sensitive = [sensitive]
    sensitive = check_columns(df, list(sensitive), "sensitive") if len(sensitive) else []
    if sa_domains is not None and not isinstance(sa_domains, Mapping):
        raise TypeError(f"sa_domains: expected a mapping column -> domain, got {type(sa_domains).__name__}")
    if not isinstance(hierarchies, Mapping):
        raise TypeError(f"hierarchies: expected a mapping column -> Hierarchy, got {type(hierarchies).__name__}")
    check_nonempty(df, "df")
    check_no_nan(df, "df", qi + sensitive)
    missing = [a for a in qi if a not in hierarchies]
    if missing:
        raise ValueError(f"hierarchies: no hierarchy for the QI column(s) {missing}")
    codes = np.empty((len(df), len(qi)), dtype=np.int64)
    lookups, widths, hs = [], [], []
    for j, a in enumerate(qi):
        h = hierarchies[a]
        if not isinstance(h, Hierarchy):
            raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
        h.check_values(df[a])
        codes[:, j] = pd.Index(h.leaves).get_indexer(df[a])
        lk, w = _level_lookup(h)
        lookups.append(lk)
        widths.append(w)
        hs.append(h)
    rows, inverse, weight = np.unique(codes, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    sa_counts, sa_domain, sa_ordered = {}, {}, {}
    for s in sensitive:
        dom = None if sa_domains is None else sa_domains.get(s)
        col = df[s]
        if dom is not None:
            dom = pd.Index(list(dom))
            if dom.has_duplicates:
                raise ValueError(f"sa_domains[{s!r}]: expected distinct values, got duplicates "
                                 f"{list(dom[dom.duplicated()][:5])}")
            sa_ordered[s] = True
        elif isinstance(col.dtype, pd.CategoricalDtype) and col.dtype.ordered:
            dom = pd.Index(list(col.cat.categories))
            sa_ordered[s] = True
        else:
            dom = pd.Index(sorted(pd.unique(col)))
            sa_ordered[s] = bool(pd.api.types.is_numeric_dtype(col))
        sc = dom.get_indexer(col)
        if (sc < 0).any():
            raise ValueError(f"sa_domains: value(s) {pd.Series(pd.unique(col[sc < 0])[:5]).tolist()} of {s!r} "
                             "not in its domain")
        mat = sparse.coo_matrix((np.ones(len(df)), (inverse, sc)), shape=(len(rows), len(dom))).tocsr().tocoo()
        sa_counts[s] = (mat.row.astype(np.int64), mat.col.astype(np.int64), mat.data)
        sa_domain[s] = tuple(dom)
    enc = Encoded(qi=tuple(qi), hierarchies=tuple(hs), rows=rows, weight=weight.astype(float),
                  lookups=tuple(lookups), widths=tuple(widths), sa_counts=sa_counts, sa_domain=sa_domain,
                  n=len(df), sa_ordered=sa_ordered)
    object.__setattr__(enc, "base", _base_freqset(enc))
    return enc


def _check_enc(enc) -> None:
    if not isinstance(enc, Encoded):
        raise TypeError(f"enc: expected an Encoded table (privlib.generalization.encode), got {type(enc).__name__}")


def _check_levels(enc: Encoded, levels) -> tuple:
    _check_enc(enc)
    if isinstance(levels, (str, Mapping)) or not hasattr(levels, "__iter__"):
        raise TypeError(f"levels: expected a sequence of one integer level per QI {list(enc.qi)}, got {levels!r}")
    levels = tuple(check_int(x, "levels") for x in levels)
    if len(levels) != len(enc.qi):
        raise ValueError(f"levels: expected one level per QI {list(enc.qi)}, got {levels}")
    for a, L, H in zip(enc.qi, levels, enc.heights):
        if not 0 <= L <= H:
            raise ValueError(f"levels: level of {a!r} must be in [0, {H}], got {L}")
    return levels


def class_ids(enc: Encoded, levels) -> tuple[np.ndarray, int]:
    """Equivalence class of every distinct QI row at the lattice node ``levels``.

    Returns ``(ids, n_classes)`` with ``ids`` in ``0 .. n_classes - 1`` (length ``u``).
    """
    levels = _check_levels(enc, levels)
    codes = np.column_stack([enc.lookups[j][L][enc.rows[:, j]] for j, L in enumerate(levels)])
    ids, nc, _ = _group_codes(codes, [enc.widths[j][L] for j, L in enumerate(levels)])
    return ids, nc


_MAX_LATTICE = 2_000_000


def lattice(heights: Sequence[int]) -> list:
    """All nodes of the generalization lattice, sorted by height (sum of levels) then lexicographically.

    Raises ``ValueError`` for a negative height or a lattice of more than 2,000,000 nodes
    (the exhaustive traversal would not finish).
    """
    heights = [check_int(h, "heights", minimum=0) for h in heights]
    size = 1
    for h in heights:
        size *= h + 1
    if size > _MAX_LATTICE:
        raise ValueError(f"heights: the lattice of {heights} has {size:,} nodes; expected at most "
                         f"{_MAX_LATTICE:,} (use fewer QIs or shallower hierarchies)")
    nodes = list(itertools.product(*[range(h + 1) for h in heights]))
    nodes.sort(key=lambda L: (sum(L), L))
    return nodes


# ---------------------------------------------------------------------------- requirements
@dataclass(frozen=True)
class KAnonymityReq:
    """Every class has at least ``k`` records."""

    k: int

    def __post_init__(self):
        object.__setattr__(self, "k", check_int(self.k, "k", minimum=1))

    def label(self) -> str:
        return f"{self.k}-anonymity"

    def holds(self, sizes, counts) -> bool:
        return bool(sizes.min() >= self.k)


def _sa(counts, sa):
    if sa not in counts:
        raise ValueError(f"sa: {sa!r} was not encoded as a sensitive attribute (encode(..., sensitive=[...]))")
    return counts[sa]


def _check_sa_name(sa):
    if isinstance(sa, (list, set, frozenset, dict, np.ndarray, pd.Index, pd.Series)):
        raise TypeError(f"sa: expected a column name (one sensitive attribute per requirement), "
                        f"got {type(sa).__name__} {sa!r}")


@dataclass(frozen=True)
class LDiversityReq:
    """Every class is ``l``-diverse in ``sa`` (distinct, entropy or recursive (c, l))."""

    sa: str
    l: float
    kind: str = "distinct"
    c: float | None = None

    def __post_init__(self):
        _check_sa_name(self.sa)
        check_l(self.l)
        check_in(self.kind, "kind", ("distinct", "entropy", "recursive"))
        if self.kind == "recursive":
            if self.c is None:
                raise ValueError("c: recursive (c, l)-diversity needs a constant c > 0, got None")
            check_positive(self.c, "c")

    def label(self) -> str:
        if self.kind == "recursive":
            return f"recursive ({self.c:g},{self.l:g})-diversity"
        return f"{self.kind} {self.l:g}-diversity"

    def holds(self, sizes, counts) -> bool:
        if sizes.min() < self.l:  # every kind needs at least l records per class (cheap reject)
            return False
        M = _sa(counts, self.sa)
        if self.kind == "distinct":
            return bool((M > 0).sum(axis=1).min() >= self.l)
        if self.kind == "entropy":
            P = M / M.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                H = -np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0).sum(axis=1)
            return bool(H.min() >= np.log(self.l) - 1e-12)
        l = int(np.ceil(self.l))
        R = -np.sort(-M, axis=1)
        if l > R.shape[1]:
            return False
        tail = R[:, l - 1:].sum(axis=1)
        return bool(np.all(R[:, 0] < self.c * tail))


@dataclass(frozen=True)
class TClosenessReq:
    """Every class's distribution of ``sa`` is within EMD ``t`` of the whole table's.

    ``t`` lies in [0, 1] (the range of the EMD).  ``distance="ordered"`` needs the order of
    the values: a numeric attribute, an ordered categorical or ``encode(...,
    sa_domains={sa: order})``; ``distance="hierarchical"`` needs ``hierarchy`` and the
    attribute encoded with ``sa_domains={sa: hierarchy.leaves}`` (checked by :func:`search`
    and :func:`evaluate`).
    """

    sa: str
    t: float
    distance: str = "equal"
    hierarchy: Hierarchy | None = None

    def __post_init__(self):
        _check_sa_name(self.sa)
        check_probability(self.t, "t")   # an EMD lies in [0, 1]
        check_in(self.distance, "distance", ("equal", "ordered", "hierarchical"))
        if self.distance == "hierarchical" and not isinstance(self.hierarchy, Hierarchy):
            raise ValueError("hierarchy: distance='hierarchical' needs a privlib Hierarchy")

    def label(self) -> str:
        return f"{self.t:g}-closeness ({self.sa})"

    def holds(self, sizes, counts) -> bool:
        M = _sa(counts, self.sa)
        q = M.sum(axis=0) / M.sum()
        P = M / M.sum(axis=1, keepdims=True)
        if self.distance == "equal":
            d = emd_equal(P, q)
        elif self.distance == "ordered":
            d = emd_ordered(P, q)
        else:
            d = emd_hierarchical(P, q, self.hierarchy)
        return bool(np.max(d) <= self.t + 1e-12)


def discernibility(sizes) -> float:
    """Discernibility metric ``sum |E|^2`` of a partition into classes of the given sizes."""
    sizes = check_array(sizes, "sizes", ndim=1, minimum=0)
    return float((sizes ** 2).sum())


@dataclass(frozen=True)
class _FreqSet:
    """Incognito's frequency set of a node: its classes (generalized QI codes), sizes and
    sensitive-value counts."""

    codes: np.ndarray      # classes x d node ids
    sizes: np.ndarray      # classes
    counts: dict           # sa -> classes x m


def _base_freqset(enc: Encoded) -> _FreqSet:
    counts = {}
    for s, (row, col, val) in enc.sa_counts.items():
        m = len(enc.sa_domain[s])
        counts[s] = np.bincount(row * m + col, weights=val, minlength=len(enc.rows) * m).reshape(len(enc.rows), m)
    return _FreqSet(enc.rows, enc.weight, counts)


_KEY_MAX = 2 ** 62   # mixed-radix keys stay below this bound (int64 holds < 2**63)


def _group_codes(codes: np.ndarray, widths: Sequence[int]):
    """Group the rows of ``codes`` (column ``j`` in ``0 .. widths[j] - 1``).

    Returns ``(ids, n_classes, first)``: class ids sorted lexicographically by the code rows,
    and the first row of each class.  The mixed-radix key ``key * w + code`` is guarded:
    when the product of the widths would pass ``2**62`` the partial key is re-factorised to
    ``0 .. (distinct partial rows) - 1`` (order preserving), so it never overflows int64.
    """
    n = len(codes)
    key = np.zeros(n, dtype=np.int64)
    radix = 1                                    # Python int: exact
    for j, w in enumerate(widths):
        w = int(w)
        if radix * w > _KEY_MAX:
            uniq, key = np.unique(key, return_inverse=True)
            key = key.ravel().astype(np.int64)
            radix = max(len(uniq), 1)
            if radix * w > _KEY_MAX:             # pragma: no cover - needs > 2**31 rows and leaves
                _, first, ids = np.unique(codes, axis=0, return_index=True, return_inverse=True)
                return ids.ravel(), len(first), first
        key = key * w + codes[:, j]
        radix *= w
    if radix <= 4 * len(key) + 1024:
        present = np.zeros(radix, dtype=bool)
        present[key] = True
        remap = np.cumsum(present) - 1
        ids = remap[key]
        nc = int(remap[-1] + 1)
        first = np.empty(nc, dtype=np.int64)
        first[ids[::-1]] = np.arange(len(ids) - 1, -1, -1)
        return ids, nc, first
    _, first, ids = np.unique(key, return_index=True, return_inverse=True)
    return ids.ravel(), len(first), first


def _merge(fs: _FreqSet, newcodes: np.ndarray, widths, needed=None) -> _FreqSet:
    ids, nc, first = _group_codes(newcodes, widths)
    sizes = np.bincount(ids, weights=fs.sizes, minlength=nc)
    counts = {}
    for s, M in fs.counts.items():
        if needed is not None and s not in needed:
            continue
        m = M.shape[1]
        counts[s] = np.bincount((ids[:, None] * m + np.arange(m)).ravel(), weights=M.ravel(),
                                minlength=nc * m).reshape(nc, m)
    return _FreqSet(newcodes[first], sizes, counts)


def _needed(requirements):
    return {r.sa for r in requirements if hasattr(r, "sa")}


def _freqset(enc: Encoded, levels, needed=None) -> _FreqSet:
    """Frequency set of a node computed from the distinct QI rows."""
    codes = np.column_stack([enc.lookups[j][L][enc.rows[:, j]] for j, L in enumerate(levels)])
    return _merge(enc.base, codes, [enc.widths[j][L] for j, L in enumerate(levels)], needed)


def _up_maps(enc: Encoded):
    """Per attribute and level: node id at ``level`` -> node id of its ancestor at ``level + 1``."""
    ups = []
    for lk, w in zip(enc.lookups, enc.widths):
        per = []
        for L in range(len(lk) - 1):
            up = np.zeros(w[L], dtype=np.int64)
            up[lk[L]] = lk[L + 1]
            per.append(up)
        ups.append(per)
    return ups


def _judge(enc, levels, fs: _FreqSet, requirements) -> dict:
    ok = all(r.holds(fs.sizes, fs.counts) for r in requirements)
    nc = len(fs.sizes)
    return {"levels": tuple(levels), "satisfied": ok, "n_classes": nc, "dm": discernibility(fs.sizes),
            "avg_size": enc.n / nc}


def evaluate(enc: Encoded, levels, requirements: Sequence = ()) -> dict:
    """Evaluate one lattice node: whether it satisfies every requirement, and its quality.

    Returns a dict with ``levels, satisfied, n_classes, dm`` (discernibility metric) and
    ``avg_size`` (records per class).
    """
    levels = _check_levels(enc, levels)
    requirements = _as_requirements(requirements)
    _check_requirements(enc, requirements, allow_empty=True)
    return _judge(enc, levels, _freqset(enc, levels, _needed(requirements)), requirements)


@dataclass(frozen=True)
class SearchResult:
    """Outcome of :func:`search`.

    Attributes
    ----------
    minimal : DataFrame
        The minimal satisfying nodes (no satisfying direct specialization), with their
        ``n_classes``, ``dm`` and ``avg_size``.
    best : tuple or None
        The minimal node of smallest discernibility metric (``None`` if nothing satisfies).
    dm : float
        Its discernibility metric (NaN if nothing satisfies).
    min_avg_size : float
        The smallest average group size ``n / classes`` over the satisfying nodes.
    n_nodes, n_evaluated, n_tagged : int
        Lattice size, nodes evaluated on the data, nodes tagged by the generalization property.
    """

    qi: tuple
    requirements: tuple
    minimal: pd.DataFrame
    best: tuple | None
    dm: float
    min_avg_size: float
    n_nodes: int
    n_evaluated: int
    n_tagged: int


def search(enc: Encoded, requirements: Sequence, direction: str = "bottom-up") -> SearchResult:
    """Find every minimal full-domain generalization satisfying all ``requirements``.

    ``direction="bottom-up"`` (default): breadth-first from the bottom of the lattice, as
    Incognito traverses it, with its generalization property -- a node with a satisfying
    direct specialization is tagged as satisfying without evaluation -- and its rollup:
    an evaluated node's frequency set is computed from the (smaller) frequency set of a
    direct specialization rather than from the data.

    ``direction="top-down"``: breadth-first from the root, with the contrapositive -- a node
    with a failing direct generalization is tagged as failing; cheaper when few nodes
    satisfy (strict requirements, many QIs).

    Both are exact for monotone requirements (all those of this module) and return the
    same minimal nodes.
    """
    _check_enc(enc)
    check_in(direction, "direction", ("bottom-up", "top-down"))
    requirements = _as_requirements(requirements)
    if direction == "top-down":
        return _search_top_down(enc, requirements)
    _check_requirements(enc, requirements)
    nodes = lattice(enc.heights)
    ups = _up_maps(enc)
    base = enc.base
    needed = _needed(requirements)
    sat, cache, prev_cache = {}, {}, {}
    height = 0
    rows = []
    n_eval = n_tag = 0
    for L in nodes:
        if sum(L) != height:            # next height: keep only the frequency sets one level below
            height, prev_cache, cache = sum(L), cache, {}
        tagged, child = False, None
        for j in range(len(L)):
            if L[j] > 0:
                C = L[:j] + (L[j] - 1,) + L[j + 1:]
                if sat.get(C, False):
                    tagged = True
                    break
                fs_c = prev_cache.get(C)
                if fs_c is not None and (child is None or len(fs_c.sizes) < len(child[1].sizes)):
                    child = (j, fs_c)
        if tagged:
            sat[L] = True
            n_tag += 1
            continue
        widths = [enc.widths[i][x] for i, x in enumerate(L)]
        if child is None:               # the bottom node
            fs = _merge(base, np.column_stack([enc.lookups[i][x][enc.rows[:, i]] for i, x in enumerate(L)]), widths,
                        needed)
        else:                           # Incognito's rollup from the smallest direct specialization
            j, fs_c = child
            codes = fs_c.codes.copy()
            codes[:, j] = ups[j][L[j] - 1][codes[:, j]]
            fs = _merge(fs_c, codes, widths, needed)
        res = _judge(enc, L, fs, requirements)
        n_eval += 1
        sat[L] = res["satisfied"]
        if res["satisfied"]:
            rows.append(res)
        else:
            cache[L] = fs
    return _result(enc, requirements, rows, len(nodes), n_eval, n_tag)


def _as_requirements(requirements) -> tuple:
    if callable(getattr(requirements, "holds", None)) or isinstance(requirements, (str, Mapping)) \
            or not hasattr(requirements, "__iter__"):
        raise TypeError(f"requirements: expected a list of privacy requirements (e.g. [KAnonymityReq(5)]), "
                        f"got {type(requirements).__name__} {requirements!r}")
    requirements = tuple(requirements)
    for r in requirements:
        if not callable(getattr(r, "holds", None)):
            raise TypeError(f"requirements: expected privacy requirements with a holds(sizes, counts) method "
                            f"(KAnonymityReq, LDiversityReq, TClosenessReq), got {type(r).__name__} {r!r}")
    return requirements


def _check_requirements(enc, requirements, allow_empty=False):
    if not requirements and not allow_empty:
        raise ValueError("requirements: expected at least one privacy requirement, got none")
    for r in requirements:
        if hasattr(r, "sa") and r.sa not in enc.sa_counts:
            raise ValueError(f"sa: {r.sa!r} was not encoded as a sensitive attribute (encode(..., sensitive=[...]))")
        if isinstance(r, TClosenessReq) and r.distance == "ordered" and not enc.sa_ordered.get(r.sa, False):
            raise ValueError(f"sa_domains: the ordered distance on {r.sa!r} needs an explicit order of its values "
                             f"(encode(..., sa_domains={{{r.sa!r}: [...]}}) or an ordered categorical); its "
                             f"values are not numeric and sorting them as text is not an order "
                             f"(got {list(enc.sa_domain[r.sa][:5])})")
        if isinstance(r, TClosenessReq) and r.distance == "hierarchical" \
                and tuple(enc.sa_domain[r.sa]) != tuple(r.hierarchy.leaves):
            raise ValueError(f"sa_domains: the hierarchical distance on {r.sa!r} needs its domain encoded as the "
                             f"hierarchy's leaves, in order (encode(..., sa_domains={{{r.sa!r}: hierarchy.leaves}}))")


def _result(enc, requirements, rows, n_nodes, n_eval, n_tag):
    minimal = pd.DataFrame(rows, columns=["levels", "satisfied", "n_classes", "dm", "avg_size"]).drop(
        columns="satisfied")
    minimal = minimal.sort_values("levels", kind="stable", key=lambda s: s.map(lambda L: (sum(L), L))).reset_index(drop=True)
    if len(minimal):
        i = int(np.argmin(minimal["dm"].to_numpy()))
        best, dm, mavg = tuple(minimal["levels"].iloc[i]), float(minimal["dm"].iloc[i]), float(minimal["avg_size"].min())
    else:
        best, dm, mavg = None, float("nan"), float("nan")
    return SearchResult(qi=enc.qi, requirements=requirements, minimal=minimal, best=best,
                        dm=dm, min_avg_size=mavg, n_nodes=n_nodes, n_evaluated=n_eval, n_tagged=n_tag)


def _search_top_down(enc: Encoded, requirements: tuple) -> SearchResult:
    _check_requirements(enc, requirements)
    nodes = lattice(enc.heights)[::-1]
    H = enc.heights
    needed = _needed(requirements)
    sat, info = {}, {}
    n_eval = n_tag = 0
    for L in nodes:
        parents = [L[:j] + (L[j] + 1,) + L[j + 1:] for j in range(len(L)) if L[j] < H[j]]
        if any(not sat[P] for P in parents):
            sat[L] = False
            n_tag += 1
            continue
        res = _judge(enc, L, _freqset(enc, L, needed), requirements)
        n_eval += 1
        sat[L] = res["satisfied"]
        if res["satisfied"]:
            info[L] = res
    rows = []
    for L, res in info.items():
        children = [L[:j] + (L[j] - 1,) + L[j + 1:] for j in range(len(L)) if L[j] > 0]
        if not any(sat[C] for C in children):
            rows.append(res)
    return _result(enc, requirements, rows, len(nodes), n_eval, n_tag)


# ---------------------------------------------------------------------------- publishing
def generalize_table(df: pd.DataFrame, hierarchies: Mapping, levels: Mapping) -> pd.DataFrame:
    """Full-domain generalization: replace column ``a`` by its ancestors at ``levels[a]``.

    Values missing from a hierarchy raise :class:`~privlib.hierarchy.HierarchyError` naming
    the value and the attribute; a column of ``levels`` without a hierarchy is a
    ``ValueError`` naming the column.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_unique_columns(df, "df")
    if not isinstance(levels, Mapping):
        raise TypeError(f"levels: expected a mapping column -> level, got {type(levels).__name__}")
    if not isinstance(hierarchies, Mapping):
        raise TypeError(f"hierarchies: expected a mapping column -> Hierarchy, got {type(hierarchies).__name__}")
    check_no_nan(df, "df", check_columns(df, list(levels), "levels"))
    out = df.copy()
    for a, L in levels.items():
        (a,) = check_columns(df, [a], "levels")
        if a not in hierarchies:
            raise ValueError(f"hierarchies: no hierarchy for the column {a!r} of levels; "
                             f"hierarchies are given for {list(hierarchies)}")
        h = hierarchies[a]
        if not isinstance(h, Hierarchy):
            raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
        L = check_int(L, f"levels[{a!r}]", minimum=0, maximum=h.height)
        out[a] = h.generalize(df[a], L)
    return out


def generalize_to_cut(values, hierarchy: Hierarchy, cut: Sequence) -> np.ndarray:
    """Generalize every value to its ancestor in ``cut``, a set of hierarchy nodes.

    Subtree (local) generalization, as in the source's Tables 2 and 5, where different
    ZIP codes are cut at different levels (``476**`` next to ``4790*``).  Every value given
    must have exactly one ancestor (or itself) in the cut; leaves that do not occur in
    ``values`` need not be covered.
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy: expected a privlib Hierarchy, got {type(hierarchy).__name__}")
    cut = list(cut)
    for node in cut:
        hierarchy.depth(node)  # raises HierarchyError for a node that is not in the hierarchy
    cutset = set(cut)
    s = pd.Series(values) if not isinstance(values, pd.Series) else values
    hierarchy.check_values(s)
    mapping = {}
    for v in pd.unique(s):
        hits = [a for a in hierarchy.path(v) if a in cutset]
        if len(hits) != 1:
            raise ValueError(f"cut: value {v!r} of {hierarchy._label()} has {len(hits)} ancestors in the cut "
                             f"{cut}; expected exactly one")
        mapping[v] = hits[0]
    return s.map(mapping).to_numpy()
