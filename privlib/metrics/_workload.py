"""Range COUNT(*) workloads over the quasi-identifiers and their exact answers (Section III)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validation import as_generator, check_columns, check_in, check_int, check_nonempty, check_unique_columns
from ..partition import qi_codes, root_box


@dataclass(frozen=True, eq=False)
class Workload:
    """Range COUNT(*) queries over the quasi-identifiers (inclusive integer bounds).

    Attributes
    ----------
    qi : tuple of str
    lower, upper : ndarray (queries x d), int64
    answers : ndarray (queries,)
        True answers on the data the workload was drawn from (all > 0).
    n_records : int
        Size of that data (for the selectivity).

    Raises
    ------
    ValueError
        For no query, bounds that do not match ``qi``, or a zero true answer.

    Examples
    --------
    >>> import numpy as np
    >>> wl = Workload(("x",), np.array([[0], [2]]), np.array([[1], [3]]), np.array([2, 1]), 4)
    >>> wl.n_queries, wl.selectivity.tolist()
    (2, [0.5, 0.25])
    """

    qi: tuple
    lower: np.ndarray
    upper: np.ndarray
    answers: np.ndarray
    n_records: int

    def __post_init__(self):
        if self.lower.shape[0] == 0:
            raise ValueError("workload: expected at least one query, got an empty workload")
        if self.lower.shape != self.upper.shape or self.lower.shape[1] != len(self.qi):
            raise ValueError(f"workload: bounds of shape {self.lower.shape} / {self.upper.shape} "
                             f"do not match {len(self.qi)} quasi-identifiers")
        if self.answers.shape != (self.lower.shape[0],):
            raise ValueError(f"workload: expected one true answer per query, got {self.answers.shape}")
        zero = np.flatnonzero(self.answers <= 0)
        if zero.size:
            raise ValueError(f"workload: query {int(zero[0])} has a zero true answer; the relative error "
                             "q(A(D)) - q(D) / q(D) is undefined (the source draws queries with non-zero answers)")

    @property
    def n_queries(self) -> int:
        """Number of queries."""
        return int(self.lower.shape[0])

    @property
    def selectivity(self) -> np.ndarray:
        """True answer / number of records, per query."""
        return self.answers / self.n_records

    def subset(self, idx: ArrayLike) -> "Workload":
        """The queries ``idx`` as a new Workload.

        Parameters
        ----------
        idx : array_like
            An index array or a boolean mask over the queries.

        Returns
        -------
        Workload
        """
        return Workload(self.qi, self.lower[idx], self.upper[idx], self.answers[idx], self.n_records)


def _prefix_counts(X, lo, W):
    """d-dimensional inclusive prefix sums of the data histogram (padded with a zero layer)."""
    flat = np.ravel_multi_index(tuple((X - lo).T), tuple(W))
    hist = np.bincount(flat, minlength=int(np.prod(W))).reshape(tuple(W))
    P = np.zeros(tuple(w + 1 for w in W), dtype=np.int64)
    P[tuple(slice(1, None) for _ in W)] = hist
    for ax in range(len(W)):
        _cumsum_inplace(P, ax)
    return P


def _cumsum_inplace(a: np.ndarray, axis: int) -> None:
    """``np.cumsum(a, axis=axis, out=a)``, bit for bit, faster on a C-contiguous grid.

    numpy accumulates along a middle axis one short strided run at a time; here each step adds
    a whole slab (``a[..., i, ...] += a[..., i - 1, ...]``), the same sequential additions in
    the same order, so float results are identical.  A long axis whose slabs are short keeps
    ``np.cumsum``.
    """
    n = a.shape[axis]
    inner = int(np.prod(a.shape[axis + 1:], dtype=np.int64))
    if n < 2 or (inner < 8 and n > 16) or not a.flags.c_contiguous:
        np.cumsum(a, axis=axis, out=a)
        return
    v = a.reshape(int(np.prod(a.shape[:axis], dtype=np.int64)), n, inner)
    for i in range(1, n):
        np.add(v[:, i - 1], v[:, i], out=v[:, i])


def true_answers(X: np.ndarray, lower: np.ndarray, upper: np.ndarray, *, domain_lower: ArrayLike | None = None,
                 domain_upper: ArrayLike | None = None, method: str = "auto") -> np.ndarray:
    """Exact COUNT(*) of each box query over the code matrix ``X`` (records x d).

    Parameters
    ----------
    X : numpy.ndarray
        Records x d integer codes (:func:`privlib.partition.qi_codes`).
    lower, upper : numpy.ndarray
        Queries x d inclusive bounds.
    domain_lower, domain_upper : array_like, optional
        The root box (default: the data's min and max).
    method : {"auto", "prefix", "scan"}
        ``"prefix"``: inclusion--exclusion over the ``2**d`` corners of a d-dimensional
        prefix-sum table (when the domain has at most 5e7 cells); ``"scan"``: a chunked
        vectorised scan of the records (the independent check); ``"auto"``: the prefix sums
        when they fit.

    Returns
    -------
    numpy.ndarray
        One int64 count per query.

    Raises
    ------
    ValueError
        For a bad ``method``, or ``"prefix"`` on a domain of more than 5e7 cells.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [1, 2], [3, 3]])
    >>> true_answers(X, np.array([[0, 0], [1, 1]]), np.array([[1, 2], [3, 3]])).tolist()
    [2, 2]
    """
    check_in(method, "method", ("auto", "prefix", "scan"))
    lo = X.min(axis=0) if domain_lower is None else np.asarray(domain_lower)
    hi = X.max(axis=0) if domain_upper is None else np.asarray(domain_upper)
    W = (hi - lo + 1).astype(np.int64)
    d = X.shape[1]
    if method == "auto":
        method = "prefix" if np.prod(W.astype(float)) <= 5e7 else "scan"
    elif method == "prefix" and np.prod(W.astype(float)) > 5e7:
        raise ValueError(f"method: 'prefix' needs a prefix-sum table of the whole domain, here "
                         f"{np.prod(W.astype(float)):.3g} cells (more than 5e7); use 'scan' or 'auto'")
    if method == "prefix":
        P = _prefix_counts(X, lo, W)
        a = np.clip(lower - lo, 0, W)               # index of the cell before the range (padded)
        b = np.clip(upper - lo + 1, 0, W)
        return _corner_sum(P, a, b)
    out = np.zeros(lower.shape[0], dtype=np.int64)
    step = max(1, int(2e7 // max(X.shape[0] * d, 1)))
    for s in range(0, lower.shape[0], step):
        L, U = lower[s:s + step], upper[s:s + step]
        inside = ((X[None, :, :] >= L[:, None, :]) & (X[None, :, :] <= U[:, None, :])).all(axis=2)
        out[s:s + step] = inside.sum(axis=1)
    return out


def range_workload(df: pd.DataFrame, qi: Sequence[str], *, n: int, rng: int | np.random.Generator,
                   domain: Mapping[str, tuple[int, int]] | None = None, max_rounds: int = 1000) -> Workload:
    """Draw ``n`` range COUNT(*) queries with a non-zero true answer (Section III).

    Each query has, on every QI ``j`` with domain ``[lo_j, hi_j]`` of ``W_j`` codes, a
    range of ``ceil(W_j / 2)`` consecutive codes (half of the domain) whose start is
    uniform over the positions that keep it inside the domain.  Queries with a zero true
    answer are redrawn.

    Parameters
    ----------
    df : pandas.DataFrame
        The data the queries are drawn on and answered from.
    qi : sequence of str
        Ordered integer codes (see :func:`privlib.partition.qi_codes`).
    n : int
        Number of queries, >= 1 (the source: 2,000).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    domain : dict, optional
        ``{qi: (low, high)}`` integer codes; default the data's min and max (the workload is
        an evaluation tool, not a release, so no privacy warning; pass the same public
        domain as the release being evaluated so the two agree).
    max_rounds : int
        Rounds of redrawing queries with a zero answer before giving up (RuntimeError).

    Returns
    -------
    Workload

    Raises
    ------
    TypeError, ValueError
        For bad arguments (named in the message).
    RuntimeError
        If ``max_rounds`` rounds find fewer than ``n`` non-zero queries.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": [0, 1, 2, 3, 3], "y": [0, 0, 1, 1, 1]})
    >>> wl = range_workload(df, ["x", "y"], n=3, rng=0, domain={"x": (0, 3), "y": (0, 1)})
    >>> wl.n_queries, bool((wl.upper - wl.lower + 1 == [2, 1]).all())
    (3, True)
    """
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    check_nonempty(df, "df")
    qi = check_columns(df, qi, "qi")
    n = check_int(n, "n", minimum=1)
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    gen = as_generator(rng)
    X = qi_codes(df, qi)
    lo, hi = root_box(X, qi, domain=domain)
    W = hi - lo + 1
    w = (W + 1) // 2
    lowers, uppers, answers = [], [], []
    have = 0
    for _ in range(max_rounds):
        m = max(2 * (n - have), 64)
        start = lo + np.floor(gen.random((m, lo.size)) * (W - w + 1)).astype(np.int64)
        L, U = start, start + w - 1
        ans = true_answers(X, L, U, domain_lower=lo, domain_upper=hi)
        ok = ans > 0
        lowers.append(L[ok])
        uppers.append(U[ok])
        answers.append(ans[ok])
        have += int(ok.sum())
        if have >= n:
            break
    else:
        raise RuntimeError(f"range_workload: found only {have} queries with a non-zero answer in {max_rounds} "
                           "rounds (max_rounds); the data may occupy a tiny corner of the domain")
    L = np.concatenate(lowers)[:n]
    U = np.concatenate(uppers)[:n]
    A = np.concatenate(answers)[:n]
    return Workload(tuple(qi), L, U, A, len(df))


def _corners(base, flip):
    """The 2**d corners of boxes (one per row of ``base`` and ``flip``, d columns), for
    inclusion--exclusion: per corner, the index tuple (column ``j`` from ``flip`` where bit ``j``
    of the corner is set, else from ``base``) and its sign ``(-1)**(bits set)``."""
    d = base.shape[1]
    for corner in range(1 << d):
        idx, sign = [], 1
        for j in range(d):
            if corner >> j & 1:
                idx.append(flip[:, j])
                sign = -sign
            else:
                idx.append(base[:, j])
        yield tuple(idx), sign


def _inner_corners(a, b, W):
    """The corner updates of boxes ``a <= x < b`` (0-based int64, ``a < W``, ``b <= W``) on the W
    grid, in the order of :func:`_corners`: per corner the flat (C-order) index in ``W``, whether
    the corner lies in the grid (a bool per box, None: every box) and its sign.

    A difference array on the (W + 1) grid spreads the boxes' counts; its cells at index W on some
    axis are never read (the prefix sums take the cells below W), and the cumulative sums never
    carry them below W: the updates that land there are left out (:func:`_padded_prefix`).  The
    flat indices are sums of per-axis terms computed once (a lower bound is always in the grid).

    Examples
    --------
    >>> import numpy as np
    >>> [(f.tolist(), None if k is None else k.tolist(), s)
    ...  for f, k, s in _inner_corners(np.array([[0], [1]]), np.array([[1], [3]]), (3,))]
    [([0, 1], None, 1), ([1, 2], [True, False], -1)]
    """
    shape = tuple(int(w) for w in W)
    d = len(shape)
    stride = [int(np.prod(shape[j + 1:], dtype=np.int64)) for j in range(d)]
    lo_term = [a[:, j] * stride[j] for j in range(d)]
    hi_term = [np.minimum(b[:, j], shape[j] - 1) * stride[j] for j in range(d)]
    hi_in = [b[:, j] < shape[j] for j in range(d)]
    hi_in = [None if m.all() else m for m in hi_in]
    for corner in range(1 << d):
        flat, inside, sign = None, None, 1
        for j in range(d):
            if corner >> j & 1:
                term, sign = hi_term[j], -sign
                if hi_in[j] is not None:
                    inside = hi_in[j] if inside is None else inside & hi_in[j]
            else:
                term = lo_term[j]
            flat = term if flat is None else flat + term
        yield flat, inside, sign


def _padded_prefix(G: np.ndarray, d: int, *, density: bool) -> np.ndarray:
    """Prefix sums over the first ``d`` axes of the W-grid difference array ``G`` (changed in place),
    as the (W + 1) grid padded with zero first layers: the cell sums of the boxes ``a <= x < b``
    are then :func:`_corner_sum` of the result (trailing axes, e.g. SA ranges, carried along).

    ``density``: first the cumulative sums that turn the corner updates into a density per cell.
    The floats are those of the (W + 1) grid's own sums: a cell below W never reads one at W, and
    the zero first layers' only trace, ``0.0 + x`` on each axis's first layer, is kept (it turns
    -0.0 into 0.0).

    Examples
    --------
    >>> import numpy as np
    >>> _padded_prefix(np.array([[1.0, 2.0], [3.0, 4.0]]), 2, density=False).tolist()
    [[0.0, 0.0, 0.0], [0.0, 1.0, 3.0], [0.0, 4.0, 10.0]]
    """
    if density:
        for ax in range(d):
            _cumsum_inplace(G, ax)
    for ax in range(d):
        G[(slice(None),) * ax + (0,)] += 0.0
        _cumsum_inplace(G, ax)
    P = np.zeros(tuple(n + 1 for n in G.shape[:d]) + G.shape[d:])
    P[tuple(slice(1, None) for _ in range(d))] = G
    return P


def _corner_sum(P, a, b):
    """Inclusion--exclusion over the 2**d corners of padded prefix sums ``P``: the sum of
    the cells ``a <= x < b`` (per row of ``a``, ``b``)."""
    out = np.zeros(a.shape[0], dtype=P.dtype)
    for idx, sign in _corners(b, a):
        out += sign * P[idx]
    return out
