"""The utility functions of DiffGen's candidates (Equations 3, 4, 6 of Mohammed et al. 2011)."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validation import check_in


def _entropy_rows(counts) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
    logp = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return -(p * logp).sum(axis=-1)


def max_score(child_counts: ArrayLike) -> np.ndarray:
    """``Max(D, v) = sum over children c of max_cls |D_c^cls|`` (Equation 4; sensitivity 1).

    Parameters
    ----------
    child_counts : array_like, shape (..., children, classes)
        Class counts of the records of each child of the specialized value ``v``.

    Returns
    -------
    numpy.ndarray
        The score (a 0-d array for one candidate), as floats.

    Examples
    --------
    >>> import numpy as np
    >>> float(max_score(np.array([[4, 3], [0, 1]])))   # age split at 40 in Table 1
    5.0
    """
    return np.asarray(child_counts).max(axis=-1).sum(axis=-1).astype(float)


def infogain_score(child_counts: ArrayLike) -> np.ndarray:
    """``InfoGain(D, v) = H_v(D) - sum_c |D_c|/|D_v| H_c(D)`` (Equation 3; sensitivity ``log2 |classes|``).

    Parameters
    ----------
    child_counts : array_like, shape (..., children, classes)
        Class counts of the records of each child of ``v``; an empty ``D_v`` scores 0.

    Returns
    -------
    numpy.ndarray
        The information gain in bits (a 0-d array for one candidate).

    Examples
    --------
    >>> import numpy as np
    >>> round(float(infogain_score(np.array([[4, 3], [0, 1]]))), 4)
    0.1379
    >>> float(infogain_score(np.array([[2, 2], [2, 2]])))   # Any_Job in Table 1: no gain
    0.0
    """
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
    if utility == "max":   # Equation 4 in integers (exact): max_score of the J x 2 x K pairs, without the stack
        return (left.max(axis=1) + (total[None, :] - left).max(axis=1)).astype(float)
    pair = np.empty((left.shape[0], 2, left.shape[1]))     # J x 2 x K, as floats (what the score reads)
    pair[:, 0] = left
    pair[:, 1] = total[None, :] - left
    return _SCORES[utility](pair)




def split_scores(df: pd.DataFrame, attribute: str, target: str, domain: tuple[float, float], *,
                 utility: str = "max", classes: Sequence | None = None) -> pd.DataFrame:
    """The scores of the split points of a numerical value (Section 4.2, Equation 6).

    The split points ``s`` of the interval ``[low, high)`` fall into intervals between
    successive distinct data values; every ``s`` of one interval sends the same records left
    (``x < s``), so it has one score.  DiffGen's Lines 4 and 9 choose an interval with
    probability proportional to ``length x exp(eps' u / (2 du))`` (Equation 7), then a point
    uniformly inside it.

    Parameters
    ----------
    df : pandas.DataFrame
        The table (no missing values).
    attribute : str
        The numerical attribute.
    target : str
        The class attribute.
    domain : (float, float)
        The public domain ``[low, high)`` of ``attribute``.
    utility : {"max", "infogain"}
        The score: Max (Equation 4) or InfoGain (Equation 3).
    classes : sequence, optional
        The class domain; default: the classes of the data.

    Returns
    -------
    pandas.DataFrame
        One row per interval of split points: ``low, high, length, score``; the split points
        ``low < s <= high`` of a row score ``score``.

    Raises
    ------
    ValueError, TypeError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 50], "class": ["N", "N", "Y"]})
    >>> split_scores(df, "age", "class", (18, 65))
        low  high  length  score
    0  18.0  20.0     2.0    2.0
    1  20.0  30.0    10.0    2.0
    2  30.0  50.0    20.0    3.0
    3  50.0  65.0    15.0    2.0
    """
    from ._encoding import _prepare
    if not isinstance(utility, str):
        raise TypeError(f"utility: expected one of {list(_SCORES)}, got {type(utility).__name__} {utility!r}")
    check_in(utility, "utility", tuple(_SCORES))
    prep = _prepare(df, [attribute], target, {attribute: domain}, classes=classes)
    a = prep.attrs[0]
    if a.kind != "numerical":  # pragma: no cover - _make_attrs only builds numerical from a pair
        raise TypeError(f"domain: expected a numerical domain (low, high), got {domain!r}")
    left, total, bounds, lengths = _num_split_table(prep, 0, a.low, a.high)
    return pd.DataFrame({"low": bounds[:-1], "high": bounds[1:], "length": lengths,
                         "score": _num_scores(left, total, utility)})
