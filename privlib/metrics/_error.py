"""Empirical utility: answering the workload from a release, and its median relative error (Definition 2)."""
from __future__ import annotations

import numpy as np

from .._docs import shared_doc
from .._validation import check_in
from ..partition import Decomposition
from ._workload import Workload, _corner_sum, _inner_corners, _padded_prefix

#: The release every example of the error measures reads (eight records, two leaves).
TOY_RELEASE_DOC = """
Examples
--------
>>> import numpy as np, pandas as pd
>>> from privlib.partition import mondrian
>>> dec = mondrian(pd.DataFrame({"x": range(8), "s": list("aabbabab")}), ["x"], "s", k=4)
"""
#: The arguments of the error measures (the release answers the workload as :func:`estimate_answers`).
ANSWERING_DOC = """
Parameters
----------
decomposition : privlib.partition.Decomposition
workload : Workload
clip_negative, match_total : bool
    The noisy-count post-processing (:func:`leaf_counts`; default: none).
"""


def _check_answering(decomposition, workload) -> None:
    """A release and a workload to answer on it (TypeError naming the argument otherwise)."""
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if not isinstance(workload, Workload):
        raise TypeError(f"workload: expected a privlib.metrics.Workload, got {type(workload).__name__}")


def leaf_counts(decomposition: Decomposition, *, clip_negative: bool = False, match_total: bool = False) -> np.ndarray:
    """Leaf totals used to answer queries, with the optional post-processing of noisy counts.

    * default: the released counts as they are (negative noisy counts included), the row
      sums of the histograms -- unbiased;
    * ``clip_negative=True``: every negative *cell* of the histograms (leaf x SA value) is
      rounded up to 0 before summing, as the source does for its classifier (Section II,
      "rounding such counts up to zero (the most likely true value)"); the source does not
      say what it does for query answering.  Clipping biases every leaf total upwards
      (by about ``b/2`` per cell for Laplace scale ``b`` when the true count is 0);
    * ``match_total=True`` (with ``clip_negative``): the clipped totals are then rescaled so
      that they sum to the released noisy grand total (the sum of the unclipped counts,
      itself an unbiased estimate of n, floored at 0) -- a consistency step that is pure
      post-processing and spends no budget.

    For exact (syntactic) histograms all three give the same counts.

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    clip_negative : bool, default False
    match_total : bool, default False
        Only with ``clip_negative``.

    Returns
    -------
    numpy.ndarray
        One float per leaf.

    Raises
    ------
    TypeError
        For a non-Decomposition or non-bool flags.
    ValueError
        For ``match_total`` without ``clip_negative``.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> dec = mondrian(pd.DataFrame({"x": range(6), "s": list("aabbab")}), ["x"], "s", k=3)
    >>> leaf_counts(dec).tolist()
    [3.0, 3.0]
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if not isinstance(clip_negative, (bool, np.bool_)) or not isinstance(match_total, (bool, np.bool_)):
        raise TypeError(f"clip_negative, match_total: expected bools, got {clip_negative!r}, {match_total!r}")
    if match_total and not clip_negative:
        raise ValueError("match_total: rescaling to the noisy total needs clip_negative=True "
                         "(without clipping the counts already sum to it)")
    hist = np.asarray(decomposition.histograms, dtype=float)
    if not clip_negative:
        return hist.sum(axis=1)
    counts = np.clip(hist, 0.0, None).sum(axis=1)
    if match_total:
        total = max(float(hist.sum()), 0.0)
        s = counts.sum()
        counts = counts * (total / s) if s > 0 else np.full(counts.shape, total / max(counts.size, 1))
    return counts


@shared_doc(toy_release=TOY_RELEASE_DOC)
def estimate_answers(decomposition: Decomposition, workload: Workload, *, method: str = "auto",
                     chunk_cells: int = 4_000_000, clip_negative: bool = False,
                     match_total: bool = False) -> np.ndarray:
    """Answer every query from the leaves under the uniformity assumption (Section III).

    ``q(A(D)) = sum_leaves count_leaf * prod_j |q_j intersect leaf_j| / |leaf_j|`` with integer
    interval lengths.  By default noisy (DP) counts are used as released, negative ones
    included (unbiased); ``clip_negative`` and ``match_total`` select the post-processed
    counts of :func:`leaf_counts` instead.  Two methods, equal up to float round-off:

    * ``"grid"``: spread each leaf's count uniformly over its cells (a d-dimensional
      difference array, 2**d corner updates per leaf, then cumulative sums), take prefix
      sums of that density and answer each query from the 2**d corners of its box --
      O(cells + (leaves + queries) 2**d);
    * ``"overlap"``: the (queries x leaves x d) overlap-fraction array, in chunks of
      queries -- the direct formula, and the independent check.

    ``"auto"`` picks the cheaper of the two (the grid only for at most 5e7 cells).

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
        The release.
    workload : Workload
        Queries over the same quasi-identifiers.
    method : {"auto", "grid", "overlap"}
    chunk_cells : int
        Queries x leaves cells per chunk of the ``"overlap"`` method.
    clip_negative, match_total : bool
        The post-processing of :func:`leaf_counts`.

    Returns
    -------
    numpy.ndarray
        One float estimate per query.

    Raises
    ------
    TypeError
        For a non-Decomposition or non-Workload.
    ValueError
        For a bad ``method`` or a workload over other quasi-identifiers.

    {{toy_release}}
    >>> wl = Workload(("x",), np.array([[0], [2]]), np.array([[5], [3]]), np.array([6, 2]), 8)
    >>> estimate_answers(dec, wl).round(6).tolist()
    [6.0, 2.0]
    """
    _check_answering(decomposition, workload)
    check_in(method, "method", ("auto", "grid", "overlap"))
    if tuple(workload.qi) != tuple(decomposition.qi):
        raise ValueError(f"workload: its quasi-identifiers {list(workload.qi)} differ from the "
                         f"decomposition's {list(decomposition.qi)}")
    lo, hi = decomposition.lower, decomposition.upper
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    W = (dhi - dlo + 1).astype(np.int64)
    counts = leaf_counts(decomposition, clip_negative=clip_negative, match_total=match_total)
    L, d = lo.shape
    if method == "auto":
        cells = np.prod(W.astype(float) + 1)
        # measured on one core: ~18 ns per cell and QI for the grid, ~20 ns per query x leaf x QI
        cost_grid = 18 * d * cells + 50 * (L + workload.n_queries) * 2 ** d
        cost_overlap = 20.0 * workload.n_queries * L * d
        method = "grid" if cells <= 5e7 and cost_grid < cost_overlap else "overlap"
    if method == "grid":
        QL = np.clip(workload.lower - dlo, 0, W)
        QU = np.clip(workload.upper - dlo + 1, 0, W)
        dens = counts / np.prod(decomposition.widths.astype(float), axis=1)
        a, b = lo - dlo, hi - dlo + 1
        # the density added at each box's 2**d corners inside the W grid: one bincount over the corners
        # in turn (the same additions, in the same order, as one np.add.at per corner)
        flat, vals = zip(*((f, sign * dens) if k is None else (f[k], (sign * dens)[k])
                           for f, k, sign in _inner_corners(a, b, W)))
        G = np.bincount(np.concatenate(flat), weights=np.concatenate(vals),
                        minlength=int(np.prod(W))).reshape(tuple(int(w) for w in W))
        return _corner_sum(_padded_prefix(G, d, density=True), QL, QU)   # density per cell, prefix sums
    q = workload.n_queries
    step = max(1, chunk_cells // max(L, 1))
    out = np.empty(q)
    c64 = counts.astype(np.float64)
    for s in range(0, q, step):
        out[s:s + step] = _overlap_fractions(decomposition, workload, s, s + step).astype(np.float64) @ c64
    return out


def _overlap_fractions(decomposition: Decomposition, workload: Workload, start: int = 0, stop: int | None = None):
    """(queries x leaves) float32 array: the share of each leaf's box that each query covers,
    ``prod_j |q_j intersect leaf_j| / |leaf_j|`` (for queries ``start:stop``)."""
    QL, QU = workload.lower[start:stop], workload.upper[start:stop]
    lo, hi = decomposition.lower, decomposition.upper
    # int32 arithmetic when every bound fits (fast), else int64 (codes in ms or ns)
    small = max(np.abs(lo).max(initial=0), np.abs(hi).max(initial=0), np.abs(QL).max(initial=0),
                np.abs(QU).max(initial=0)) < 2 ** 30
    it = np.int32 if small else np.int64
    lo, hi, QL, QU = lo.astype(it), hi.astype(it), QL.astype(it), QU.astype(it)
    inv_w = (1.0 / decomposition.widths).astype(np.float32)
    frac = None
    for j in range(lo.shape[1]):
        # the factor of QI j depends only on the query's range and the leaf's: computed once per
        # distinct (range, range) pair (few: half-domain queries, a few leaf intervals), then read
        qu, qinv = np.unique(np.stack([QL[:, j], QU[:, j]], axis=1), axis=0, return_inverse=True)
        lu, lfirst, linv = np.unique(np.stack([lo[:, j], hi[:, j]], axis=1), axis=0, return_index=True,
                                     return_inverse=True)
        ov = np.minimum(qu[:, 1, None], lu[None, :, 1])
        ov -= np.maximum(qu[:, 0, None], lu[None, :, 0])
        ov += 1
        np.maximum(ov, 0, out=ov)
        t = ov.astype(np.float32)
        t *= inv_w[lfirst, j][None, :]                 # the width is the interval's: any leaf with it
        f = np.take(t[qinv.ravel()], linv.ravel(), axis=1)
        frac = f if frac is None else np.multiply(frac, f, out=frac)
    return frac


@shared_doc(toy_release=TOY_RELEASE_DOC)
def overlap_fractions(decomposition: Decomposition, workload: Workload) -> np.ndarray:
    """The share of each leaf's box that each query covers (the uniformity assumption, Section III).

    ``prod_j |q_j intersect leaf_j| / |leaf_j|``: ``overlap_fractions(dec, wl) @ counts`` answers
    the workload from any leaf counts (:func:`leaf_counts`).

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    workload : Workload

    Returns
    -------
    numpy.ndarray
        Queries x leaves float32 array.

    Raises
    ------
    TypeError
        For a non-Decomposition or non-Workload.
    ValueError
        For a workload over other quasi-identifiers.

    {{toy_release}}
    >>> wl = Workload(("x",), np.array([[2]]), np.array([[5]]), np.array([4]), 8)
    >>> overlap_fractions(dec, wl).tolist()
    [[0.5, 0.5]]
    """
    _check_release(decomposition, workload)
    return _overlap_fractions(decomposition, workload)


def _check_release(decomposition, workload):
    _check_answering(decomposition, workload)
    if tuple(workload.qi) != tuple(decomposition.qi):
        raise ValueError(f"workload: its quasi-identifiers {list(workload.qi)} differ from the "
                         f"decomposition's {list(decomposition.qi)}")




@shared_doc(answering=ANSWERING_DOC, toy_release=TOY_RELEASE_DOC)
def relative_errors(decomposition: Decomposition, workload: Workload, *, clip_negative: bool = False,
                    match_total: bool = False) -> np.ndarray:
    """``rel(q) = |q(A(D)) - q(D)| / q(D)`` for every query (Definition 2).

    {{answering}}

    Returns
    -------
    numpy.ndarray
        One relative error per query.

    {{toy_release}}
    >>> wl = Workload(("x",), np.array([[0], [0]]), np.array([[1], [5]]), np.array([2, 6]), 8)
    >>> relative_errors(dec, wl).round(4).tolist()
    [0.0, 0.0]
    """
    est = estimate_answers(decomposition, workload, clip_negative=clip_negative, match_total=match_total)
    return np.abs(est - workload.answers) / workload.answers


@shared_doc(answering=ANSWERING_DOC, toy_release=TOY_RELEASE_DOC)
def median_relative_error(decomposition: Decomposition, workload: Workload, *, clip_negative: bool = False,
                          match_total: bool = False) -> float:
    """``alpha(A(D))``: the median relative error over the workload (Definition 2).

    {{answering}}

    Returns
    -------
    float

    {{toy_release}}
    >>> wl = Workload(("x",), np.array([[0], [1], [3]]), np.array([[1], [4], [4]]), np.array([2, 4, 2]), 8)
    >>> median_relative_error(dec, wl)
    0.0
    """
    return float(np.median(relative_errors(decomposition, workload, clip_negative=clip_negative,
                                           match_total=match_total)))
