"""Encoding for full-domain generalization: leaf codes, the lattice, Incognito's frequency sets."""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import check_columns, check_int, check_no_nan, check_nonempty, check_unique_columns
from ..hierarchy import Hierarchy

#: A shared docstring piece (``{{toy_lattice}}``).
TOY_LATTICE_DOC = """
>>> import pandas as pd
>>> from privlib.generalization import encode_lattice
>>> from privlib.hierarchy import Hierarchy
>>> age = Hierarchy.from_rows([[21, "2*", "*"], [25, "2*", "*"], [34, "3*", "*"], [38, "3*", "*"]])
>>> df = pd.DataFrame({"age": [21, 25, 34, 38, 25, 34], "disease": list("fuffuu")})
>>> enc = encode_lattice(df, ["age"], {"age": age}, sensitive=["disease"])
"""

__all__ = ["Encoded", "encode_lattice", "class_ids", "lattice"]


@dataclass(frozen=True)
@shared_doc(toy_lattice=TOY_LATTICE_DOC)
class Encoded:
    """A table with its QIs encoded for full-domain generalization.

    The records are collapsed to their ``u`` distinct QI rows (``rows``, leaf codes), with
    the number of records of each (``weight``) and, for every sensitive attribute, a
    ``u x m`` matrix of sensitive-value counts (``sa_counts``).  Built by :func:`encode_lattice`.

    Attributes
    ----------
    qi : tuple of str
        The quasi-identifiers, in lattice order.
    hierarchies : tuple of Hierarchy
        One per QI.
    rows : ndarray of int, shape (u, d)
        Leaf codes of the distinct QI rows.
    weight : ndarray of int, shape (u,)
        Number of records of each distinct row.
    lookups : tuple
        Per QI, per level, an array mapping a leaf code to its node id at that level.
    widths : tuple
        Per QI, per level, the number of node ids.
    sa_counts : mapping
        Sensitive attribute -> ``(row, col, count)`` triples of its ``u x m`` count matrix.
    sa_domain : mapping
        Sensitive attribute -> its values, in column order.
    n : int
        Number of records.
    base : object
        Frequency set of the bottom node.
    sa_ordered : mapping
        Sensitive attribute -> True when its domain order is meaningful (ordered EMD).
    heights : tuple of int
        Height of each QI's hierarchy (property).

    Examples
    --------
    {{toy_lattice}}
    >>> enc.qi, enc.heights, enc.n, len(enc.rows)
    (('age',), (2,), 6, 4)
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


@shared_doc(toy_lattice=TOY_LATTICE_DOC)
def encode_lattice(df: pd.DataFrame, qi: Sequence[str], hierarchies: Mapping, /, *, sensitive: Sequence[str] = (),
                   sa_domains: Mapping | None = None) -> Encoded:
    """Encode the QIs of ``df`` as leaf codes of their hierarchies.

    Parameters
    ----------
    df : DataFrame
    qi : list of str
    hierarchies : mapping column -> Hierarchy
        One per QI; every value must be a leaf (else :class:`~privlib.hierarchy.HierarchyError`
        naming the value and the attribute).
    sensitive : list of str, default ()
        Sensitive attributes whose counts are carried along (keyword-only).
    sa_domains : mapping column -> sequence, optional
        Domain (order) of a sensitive attribute; default the sorted distinct values (the
        categories of an ordered categorical).  For a hierarchical distance pass the
        hierarchy's leaves; for an ordered distance on a non-numeric attribute pass its
        order (a string domain is not ordered by its spelling: ``"11K" < "3K"``).

    Returns
    -------
    Encoded

    Raises
    ------
    ValueError, TypeError, HierarchyError
        For unknown, duplicated or missing columns, missing values, a QI without a hierarchy,
        a value that is not a leaf, or a sensitive value outside ``sa_domains``.

    Examples
    --------
    {{toy_lattice}}
    >>> enc.sa_domain["disease"], enc.weight.tolist()
    (('f', 'u'), [1.0, 2.0, 2.0, 1.0])
    """
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
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
    from scipy import sparse   # imported on first use: keeps the module import lean

    codes = np.empty((len(df), len(qi)), dtype=np.int64)
    lookups, widths, hs = [], [], []
    for j, a in enumerate(qi):
        h = hierarchies[a]
        if not isinstance(h, Hierarchy):
            raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
        h.check_values(df[a])
        codes[:, j] = pd.Index(h.leaves).get_indexer(df[a])
        views = h.level_codes()
        lookups.append(tuple(c for c, _ in views))
        widths.append(tuple(w for _, w in views))
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
        raise TypeError(f"enc: expected an Encoded table (privlib.generalization.encode_lattice), got {type(enc).__name__}")


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


@shared_doc(toy_lattice=TOY_LATTICE_DOC)
def class_ids(enc: Encoded, levels: Sequence[int]) -> tuple[np.ndarray, int]:
    """Equivalence class of every distinct QI row at the lattice node ``levels``.

    Parameters
    ----------
    enc : Encoded
    levels : sequence of int
        One generalization level per QI.

    Returns
    -------
    ids : ndarray
        Class of every distinct QI row, in ``0 .. n_classes - 1`` (length ``u``).
    n_classes : int

    Examples
    --------
    {{toy_lattice}}
    >>> ids, nc = class_ids(enc, (1,))
    >>> ids.tolist(), nc
    ([0, 0, 1, 1], 2)
    """
    levels = _check_levels(enc, levels)
    codes = np.column_stack([enc.lookups[j][L][enc.rows[:, j]] for j, L in enumerate(levels)])
    ids, nc, _ = _group_codes(codes, [enc.widths[j][L] for j, L in enumerate(levels)])
    return ids, nc


_MAX_LATTICE = 2_000_000


def lattice(heights: Sequence[int]) -> list:
    """All nodes of the generalization lattice, sorted by height (sum of levels) then lexicographically.

    Parameters
    ----------
    heights : sequence of int
        The height of every QI's hierarchy.

    Returns
    -------
    list of tuple

    Raises
    ------
    ValueError
        For a negative height or a lattice of more than 2,000,000 nodes (the exhaustive
        traversal would not finish).

    Examples
    --------
    >>> lattice([1, 2])
    [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (1, 2)]
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


