"""The privacy-model vocabulary: k-anonymity, l-diversity and t-closeness as requirement objects.

Li, Li & Venkatasubramanian, *t-Closeness: Privacy beyond k-anonymity and l-diversity*
(ICDE 2007), slides "k-anonymity", "l-diversity" and "t-closeness definition".  One object
per privacy model, used alike by the checks of :mod:`privlib.models`, the lattice search of
:mod:`privlib.generalization` and Mondrian (:mod:`privlib.partition`):

* :class:`KAnonymity` -- every equivalence class has at least ``k`` records (Sweeney 2002);
* :class:`LDiversity` -- every class has ``l`` "well represented" sensitive values
  (Machanavajjhala et al. 2007): ``distinct`` (at least ``l`` distinct values), ``entropy``
  (entropy ``>= log l``), ``recursive`` (c, l) (``r_1 < c (r_l + ... + r_m)`` with
  ``r_1 >= r_2 >= ...`` the value counts) or ``frequency`` (no value has more than a ``1/l``
  share of the class, the reading of LeFevre et al.'s Mondrian);
* :class:`TCloseness` -- the Earth Mover's Distance between every class's sensitive
  distribution and the reference (whole-table) distribution is at most ``t``, under the
  ground distance ``equal``, ``ordered`` or ``hierarchical``
  (:func:`privlib.closeness.ground_distance`).

* :class:`BetaLikeness` -- no sensitive value's frequency in a class exceeds its frequency in the
  table by more than a relative ``beta`` (Cao & Karras 2012, basic and enhanced).

Every model implements the protocol :class:`Requirement` (``privlib/requirements/_base.py``):
what it needs (class sizes only, or the *classes x sensitive values* counts, and the table's
sensitive distribution ``q``), whether it survives generalization (``monotone``), its value on
each class (``measure``), ``satisfied(sizes, counts=None, q=None)`` (one bool per class,
vectorised over classes), ``holds(...)`` (all classes satisfied) and ``label()``.  Each object is
a frozen dataclass validated on construction.  A new privacy model is one file in this package
that subclasses :class:`Requirement` (see ``_beta.py``); the checks of :mod:`privlib.models`
(:func:`privlib.models.check`), Mondrian and the lattice search take it as it is.
"""
from __future__ import annotations

import numbers
from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._validation import check_in, check_int, check_positive, check_probability
from ..closeness import DISTANCES, ground_distance
from ..hierarchy import Hierarchy
from ._base import Requirement, _check_sa_name, _counts, _sizes, as_requirements
from ._beta import BetaLikeness

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "Requirement",
    "requirement_table",
    "as_requirements",
    "BetaLikeness",
    "KAnonymity",
    "LDiversity",
    "TCloseness",
    "L_KINDS",
    "DISTANCES",
    "check_l",
]

L_KINDS = ("distinct", "entropy", "recursive", "frequency")
"""The readings of l-diversity :class:`LDiversity` accepts."""


def check_l(l: float) -> float:
    """Validate ``l`` of l-diversity: a real number ``>= 1`` (entropy l-diversity allows non-integers).

    Parameters
    ----------
    l : float
        The diversity parameter.

    Returns
    -------
    float
        ``l`` as a float.

    Raises
    ------
    TypeError
        For a value that is not a real number.
    ValueError
        For a value below 1, NaN or infinite.

    Examples
    --------
    >>> check_l(3)
    3.0
    """
    if isinstance(l, bool) or not isinstance(l, (numbers.Real, np.integer, np.floating)):
        raise TypeError(f"l: expected a number, got {type(l).__name__} {l!r}")
    if not np.isfinite(l) or l < 1:
        raise ValueError(f"l: expected a number >= 1, got {l!r}")
    return float(l)


def _nonzeros(M):
    """``(indptr, rows, cols, values)`` of the non-zero cells of a dense array or a scipy.sparse
    matrix, in row order and, within a row, in column order (``indptr`` as a CSR matrix's)."""
    if hasattr(M, "tocsr"):
        M = M.tocsr()
        if not M.has_sorted_indices:
            M = M.sorted_indices()
        rows = np.repeat(np.arange(M.shape[0]), np.diff(M.indptr))
        return M.indptr, rows, M.indices, np.asarray(M.data, dtype=float)
    rows, cols = np.nonzero(M)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=M.shape[0]))])
    return indptr, rows, cols, np.asarray(M[rows, cols], dtype=float)


def _row_sums(indptr: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each row's sum of ``w`` (``np.add.reduceat``, as scipy.sparse sums a row)."""
    out = np.zeros(len(indptr) - 1)
    full = np.diff(indptr) > 0
    if full.any():
        out[full] = np.add.reduceat(w, indptr[:-1][full])
    return out


def _recursive_l(sorted_desc: np.ndarray, c: float) -> np.ndarray:
    """Largest l with ``r_1 < c * (r_l + ... + r_m)`` per row (0 if none); rows sorted descending."""
    tails = np.cumsum(sorted_desc[:, ::-1], axis=1)[:, ::-1]  # tails[:, j] = r_{j+1} + ... + r_m
    ok = sorted_desc[:, :1] < c * tails                       # ok[:, j]: l = j + 1 satisfies
    ok &= sorted_desc > 0                                      # l cannot exceed the distinct values
    # ok is monotone (True then False) along a row, so the count of True is the largest l
    return ok.sum(axis=1)


_BLOCK_CELLS = 2_000_000  # dense cells per block of classes (16 MB of float64)


def _l_statistic(kind: str, M, sizes: np.ndarray, c: float | None) -> np.ndarray:
    """The one place of every l-diversity formula, on dense counts or a scipy.sparse matrix.

    ``distinct``: the number of distinct values; ``frequency``: the count of the most frequent
    value; ``entropy``: the entropy ``H`` (natural log); ``recursive``: the largest integer
    ``l`` of recursive (c, l)-diversity.
    """
    n = M.shape[0]
    indptr, rows, _, v = _nonzeros(M)
    if kind == "distinct":
        return _row_sums(indptr, (v > 0).astype(float))
    if kind == "frequency":
        top = np.zeros(n)
        np.maximum.at(top, rows, v)
        return top
    if kind == "entropy":
        with np.errstate(divide="ignore", invalid="ignore"):
            p = v * (1.0 / sizes)[rows]
            plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
        return -_row_sums(indptr, plogp)
    out = np.empty(n)                        # recursive: each class's counts sorted, in blocks of rows
    step = max(1, _BLOCK_CELLS // max(M.shape[1], 1))
    for s in range(0, n, step):
        block = M[s:s + step]
        block = block.toarray() if hasattr(block, "toarray") else np.asarray(block, dtype=float)
        out[s:s + step] = _recursive_l(-np.sort(-block, axis=1), c)
    return out


def _emd_equal(indptr, rows, cols, v, sizes, q):
    """``1/2 sum_i |p_i - q_i|`` from the non-zeros only: ``1/2 (1 + sum_{p_i>0} |p_i - q_i| - q_i)``."""
    p = v / sizes[rows]
    qi = q[cols]
    terms = np.bincount(rows, weights=np.abs(p - qi) - qi, minlength=len(indptr) - 1)
    return np.clip(0.5 * (1.0 + terms), 0.0, None)


def _emd_ordered(indptr, rows, cols, v, sizes, q):
    """Ordered EMD ``1/(m-1) sum_{i<m-1} |F_P(i) - F_Q(i)|`` from the non-zeros only.

    ``F_P`` is a step function: 0 before the first value of the class, then the class's
    cumulative mass ``c`` on ``[s_j, s_{j+1})``.  On each step the sum of ``|c - F_Q(i)|``
    is read off prefix sums of the non-decreasing ``F_Q`` split at ``searchsorted(F_Q, c)``.
    Cost ``O(nnz log m)``; no dense ``classes x values`` block.
    """
    n, m = len(indptr) - 1, q.shape[0]
    if m < 2:
        return np.zeros(n)
    FQ = np.cumsum(q)[:-1]                       # F_Q(i), i = 0 .. m-2
    S = np.concatenate([[0.0], np.cumsum(FQ)])   # S[x] = sum_{i<x} F_Q(i)
    counts_per_row = np.diff(indptr)
    full = counts_per_row > 0                    # an empty class has no step
    starts = indptr[:-1][full]
    a = np.asarray(cols, dtype=np.int64)
    # cumulative mass of the class at each of its values
    cum = np.cumsum(v)
    before = np.repeat(cum[starts] - v[starts], counts_per_row[full])
    c = (cum - before) / sizes[rows]
    # end of each step: the next value of the same class, or m - 1 for the last one
    b = np.empty_like(a)
    b[:-1] = a[1:]
    b[indptr[1:][full] - 1] = m - 1
    a_c, b_c = np.minimum(a, m - 1), np.maximum(np.minimum(b, m - 1), np.minimum(a, m - 1))
    t = np.clip(np.searchsorted(FQ, c, side="left"), a_c, b_c)
    step = c * (t - a_c) - (S[t] - S[a_c]) + (S[b_c] - S[t]) - c * (b_c - t)
    first = np.zeros(n)                          # steps before the first value: |0 - F_Q|
    first[full] = S[np.minimum(a[starts], m - 1)]
    total = np.bincount(rows, weights=step, minlength=n) + first
    return np.clip(total / (m - 1), 0.0, None)


def _emd_rows(distance: str, M, sizes: np.ndarray, q: np.ndarray, hierarchy=None) -> np.ndarray:
    """The one place of every t-closeness formula: each row's EMD to ``q``, on dense counts or a
    scipy.sparse matrix alike (the same non-zeros give the same bits).

    ``equal`` and ``ordered``: the closed forms of :mod:`privlib.closeness` read from the non-zero
    counts only (:func:`_emd_equal`, :func:`_emd_ordered`); ``hierarchical``: the dispatcher
    :func:`privlib.closeness.ground_distance` on dense blocks of rows.  An empty class (size 0)
    gets distance 0.
    """
    sizes = np.asarray(sizes, dtype=float)
    if distance == "hierarchical":
        emd = ground_distance(distance, hierarchy=hierarchy)
        n, m = M.shape
        out = np.empty(n)
        step = max(1, _BLOCK_CELLS // max(m, 1))
        for s in range(0, n, step):
            block = M[s:s + step]
            block = block.toarray() if hasattr(block, "toarray") else np.asarray(block, dtype=float)
            P = block / np.maximum(sizes[s:s + step], 1)[:, None]
            P[sizes[s:s + step] == 0] = q
            out[s:s + step] = np.atleast_1d(emd(P, q))
        return out
    formula = _emd_equal if distance == "equal" else _emd_ordered
    out = formula(*_nonzeros(M), sizes, q)
    out[sizes == 0] = 0.0
    return out


@dataclass(frozen=True)
class KAnonymity(Requirement):
    """k-anonymity: every equivalence class has at least ``k`` records (slide "k-anonymity").

    Parameters
    ----------
    k : int
        The smallest class size allowed, ``k >= 1``.

    Raises
    ------
    ValueError, TypeError
        For ``k`` not an integer >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> req = KAnonymity(3)
    >>> req.label(), req.satisfied(np.array([5, 2, 3])).tolist(), req.holds(np.array([5, 2, 3]))
    ('3-anonymity', [True, False, True], False)
    """

    k: int
    needs = "sizes"
    monotone = True
    measure_name = "class size"

    def measure(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """Each class's size (float).

        {{measure_doc}}

        Examples
        --------
        >>> KAnonymity(2).measure([3, 1]).tolist()
        [3.0, 1.0]
        """
        return _sizes(sizes).astype(float)

    def __post_init__(self):
        object.__setattr__(self, "k", check_int(self.k, "k", minimum=1))

    def label(self) -> str:
        """A short name.

        {{label_returns}}

        Examples
        --------
        >>> KAnonymity(5).label()
        '5-anonymity'
        """
        return f"{self.k}-anonymity"

    def satisfied(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """One bool per class: its size is at least ``k``.

        {{satisfied_doc}}
        """
        return _sizes(sizes) >= self.k


@dataclass(frozen=True)
class LDiversity(Requirement):
    """l-diversity of the sensitive values of every class (slide "l-diversity").

    Parameters
    ----------
    l : float
        ``l >= 1`` (non-integer values make sense for ``entropy`` only; ``recursive`` uses
        ``ceil(l)``).
    kind : {"distinct", "entropy", "recursive", "frequency"}
        ``distinct``: at least ``l`` distinct values; ``entropy``: entropy (natural log)
        ``>= log l``; ``recursive``: ``r_1 < c (r_l + ... + r_m)`` (Machanavajjhala et al.
        2007); ``frequency``: ``l * max_value_count <= size`` (no value above a ``1/l`` share).
        Every kind also needs at least ``l`` records.
    c : float, required for ``kind="recursive"``
        The constant of recursive (c, l)-diversity, ``c > 0``.
    sa : str, optional
        The sensitive column the requirement is about (the lattice search needs it when
        several are encoded; ``None``: the only one).

    Raises
    ------
    ValueError, TypeError
        For ``l < 1``, an unknown ``kind``, a missing or non-positive ``c`` with
        ``kind="recursive"``, or an ``sa`` that is not one column name.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[2, 2, 1], [4, 1, 0]])
    >>> sizes = counts.sum(axis=1)
    >>> LDiversity(3).satisfied(sizes, counts).tolist()
    [True, False]
    >>> LDiversity(2, kind="frequency").satisfied(sizes, counts).tolist()
    [True, False]
    >>> LDiversity(2, kind="recursive", c=2).label()
    'recursive (2,2)-diversity'
    """

    l: float
    _: KW_ONLY
    kind: str = "distinct"
    c: float | None = None
    sa: str | None = None
    needs = "counts"
    monotone = True
    measure_name = "number of distinct sensitive values"

    def measure(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """Each class's number of distinct sensitive values (float; the ``distinct`` reading).

        {{measure_doc}}

        Examples
        --------
        >>> LDiversity(2).measure([3, 2], [[1, 2], [2, 0]]).tolist()
        [2.0, 1.0]
        """
        sizes = _sizes(sizes)
        return (np.asarray(_counts(counts, sizes, "l-diversity")) > 0).sum(axis=1).astype(float)

    def __post_init__(self):
        _check_sa_name(self.sa)
        check_l(self.l)
        check_in(self.kind, "kind", L_KINDS)
        if self.kind == "recursive":
            if self.c is None:
                raise ValueError("c: recursive (c, l)-diversity needs a constant c > 0, got None")
            check_positive(self.c, "c")
        elif self.c is not None:
            check_positive(self.c, "c")

    def label(self) -> str:
        """A short name.

        {{label_returns}}

        Examples
        --------
        >>> LDiversity(3, kind="entropy").label()
        'entropy 3-diversity'
        """
        if self.kind == "recursive":
            return f"recursive ({self.c:g},{self.l:g})-diversity"
        return f"{self.kind} {self.l:g}-diversity"

    def satisfied(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """One bool per class: it is l-diverse of this ``kind``.

        {{satisfied_doc}}
        """
        sizes = _sizes(sizes)
        M = _counts(counts, sizes, "l-diversity")
        ok = sizes >= self.l                     # every kind needs at least l records per class
        stat = _l_statistic(self.kind, M, sizes, self.c)
        if self.kind == "distinct":
            return ok & (stat >= self.l)
        if self.kind == "frequency":
            return ok & (stat * self.l <= sizes)
        if self.kind == "entropy":
            return ok & (stat >= np.log(self.l) - 1e-12)
        return ok & (stat >= np.ceil(self.l))

    def values(self, sizes: ArrayLike, counts: ArrayLike, /) -> np.ndarray:
        """Each class's l under this ``kind``: the largest ``l`` the class satisfies.

        ``distinct``: the number of distinct values; ``entropy``: ``exp(H)`` with ``H`` the
        class's entropy (natural log); ``recursive``: the largest integer ``l`` of recursive
        (c, l)-diversity; ``frequency``: ``size / (count of the most frequent value)``.  Dense
        counts and scipy.sparse matrices are read by the same formulas.

        Parameters
        ----------
        sizes : array of shape (m,)
            Class sizes (the row sums of ``counts``).
        counts : array or scipy.sparse matrix of shape (m, S)
            Sensitive-value counts of every class.

        Returns
        -------
        ndarray of float, shape (m,)

        Examples
        --------
        >>> import numpy as np
        >>> counts = np.array([[2, 2, 1], [4, 1, 0]])
        >>> LDiversity(2, kind="frequency").values(counts.sum(axis=1), counts).tolist()
        [2.5, 1.25]
        """
        sizes = np.asarray(sizes, dtype=float)
        if counts is not None and not hasattr(counts, "shape"):
            counts = np.asarray(counts, dtype=float)
        if sizes.ndim != 1 or counts is None or counts.ndim != 2 or counts.shape[0] != sizes.shape[0]:
            raise ValueError(f"counts: expected a ({sizes.shape[0]}, S) matrix (one row per class), "
                             f"got {None if counts is None else counts.shape}")
        stat = _l_statistic(self.kind, counts, sizes, self.c)
        if self.kind == "frequency":
            return sizes / stat
        if self.kind == "entropy":
            return np.exp(stat)
        return stat.astype(float)


@dataclass(frozen=True)
class TCloseness(Requirement):
    """t-closeness: every class's sensitive distribution is within EMD ``t`` of ``q``.

    Slide "t-closeness definition"; the EMD closed forms of :mod:`privlib.closeness`, chosen
    by :func:`privlib.closeness.ground_distance`.

    Parameters
    ----------
    t : float
        The largest EMD allowed, in [0, 1] (the range of the EMD).
    distance : {"equal", "ordered", "hierarchical"}
        The ground distance; ``ordered`` reads the columns of ``counts`` in the order of the
        domain, ``hierarchical`` as ``hierarchy.leaves``.
    hierarchy : Hierarchy, required for ``distance="hierarchical"``
    sa : str, optional
        The sensitive column the requirement is about (``None``: the only one).

    Raises
    ------
    ValueError, TypeError
        For ``t`` outside [0, 1], an unknown ``distance``, ``distance="hierarchical"`` without
        a ``Hierarchy``, or an ``sa`` that is not one column name.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 1, 0], [1, 1, 2]])
    >>> q = np.array([0.4, 0.3, 0.3])
    >>> req = TCloseness(0.3, distance="ordered")
    >>> req.distances(counts.sum(axis=1), counts, q=q).round(3).tolist()
    [0.325, 0.175]
    >>> req.satisfied(counts.sum(axis=1), counts, q=q).tolist()
    [False, True]
    >>> TCloseness(0.2).holds(counts.sum(axis=1), counts, q=q)
    False
    """

    t: float
    _: KW_ONLY
    distance: str = "equal"
    hierarchy: Hierarchy | None = None
    sa: str | None = None
    needs = "reference"
    monotone = True
    measure_name = "EMD to the table"

    def measure(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """Each class's EMD to ``q`` (:meth:`distances`).

        {{measure_doc}}

        Examples
        --------
        >>> TCloseness(0.5).measure([2, 2], [[2, 0], [0, 2]], q=[0.5, 0.5]).tolist()
        [0.5, 0.5]
        """
        return self.distances(sizes, counts, q=q)

    def __post_init__(self):
        _check_sa_name(self.sa)
        check_probability(self.t, "t")   # an EMD lies in [0, 1]
        check_in(self.distance, "distance", DISTANCES)
        if self.distance == "hierarchical" and not isinstance(self.hierarchy, Hierarchy):
            raise ValueError("hierarchy: distance='hierarchical' needs a privlib Hierarchy, got "
                             f"{type(self.hierarchy).__name__}")

    def label(self) -> str:
        """A short name.

        {{label_returns}}

        Examples
        --------
        >>> TCloseness(0.2, sa="occupation").label()
        '0.2-closeness (occupation)'
        """
        return f"{self.t:g}-closeness ({self.sa})" if self.sa is not None else f"{self.t:g}-closeness"

    def distances(self, sizes: ArrayLike, counts: ArrayLike, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """The EMD of every class's sensitive distribution to ``q``.

        Parameters
        ----------
        sizes : array of shape (m,)
            Class sizes (the row sums of ``counts``); an empty class gets distance 0.
        counts : array or scipy.sparse matrix of shape (m, S)
            Sensitive-value counts of every class (dense and sparse counts are read by the same
            formulas, ``_emd_rows``: the equal and ordered distances from the non-zero
            counts only).
        q : array of shape (S,), optional
            The reference distribution; default the distribution of all the classes together
            (the whole table when the classes partition it).

        Returns
        -------
        ndarray of float, shape (m,)
        """
        sizes = _sizes(sizes)
        M = counts if hasattr(counts, "tocsr") else _counts(counts, sizes, "t-closeness")
        if M.ndim != 2 or M.shape[0] != sizes.shape[0]:
            raise ValueError(f"counts: expected a ({sizes.shape[0]}, S) matrix (one row per class), got shape {M.shape}")
        if q is None:
            q = np.asarray(M.sum(axis=0), dtype=float).ravel() / M.sum()
        return _emd_rows(self.distance, M, sizes, np.asarray(q, dtype=float), self.hierarchy)

    def satisfied(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """One bool per class: its EMD to ``q`` is at most ``t`` (up to 1e-12).

        {{satisfied_doc}}
        """
        return self.distances(sizes, counts, q=q) <= self.t + 1e-12


def requirement_table() -> pd.DataFrame:
    """The privacy models of :mod:`privlib.requirements`, read from the code: one row per
    :class:`Requirement` subclass with what it needs, whether it is monotone and what it measures
    (the docs' table of models is this table, checked by ``tests/test_requirement_protocol.py``).

    Returns
    -------
    pandas.DataFrame
        Columns ``model``, ``needs``, ``monotone``, ``measure``, ``source`` (the first line of the
        class docstring), sorted by model name.

    Examples
    --------
    >>> t = requirement_table()
    >>> t.loc[t["model"] == "KAnonymity", ["needs", "monotone"]].values.tolist()
    [['sizes', True]]
    """
    rows = []
    for name in __all__:
        c = globals()[name]
        if isinstance(c, type) and issubclass(c, Requirement) and c is not Requirement:
            rows.append(dict(model=name, needs=c.needs, monotone=c.monotone, measure=c.measure_name,
                             source=(c.__doc__ or "").strip().splitlines()[0]))
    return pd.DataFrame(rows).sort_values("model", kind="stable").reset_index(drop=True)
