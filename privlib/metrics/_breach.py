"""Empirical privacy: the breach of an attack (Definition 1) and reading privacy/utility curves."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._docs import shared_doc
from .._validation import check_columns


@dataclass(frozen=True)
class Breach:
    """Empirical privacy of one attack.

    ``accuracy = 1 - pi`` (Definition 1), ``rho`` the baseline accuracy, ``beta`` the
    breach increase ``(1 - pi) / rho - 1`` (0: no better than the baseline; 1: twice as
    many correct guesses).

    Attributes
    ----------
    accuracy : float
        Share of records whose SA value the attack guesses (``1 - pi``).
    privacy : float
        ``pi``, the share it gets wrong.
    rho : float
        Accuracy of always guessing the most frequent value (:func:`majority_accuracy`).
    beta : float
        ``accuracy / rho - 1``.

    Examples
    --------
    >>> b = privacy_breach(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    >>> b.accuracy, b.rho, round(b.beta, 4)
    (0.75, 0.75, 0.0)
    """

    accuracy: float
    privacy: float
    rho: float
    beta: float


def majority_accuracy(actual: ArrayLike) -> float:
    """``rho``: accuracy of always predicting the most frequent value of ``actual``.

    The baseline of the breach increase (Cormode et al. 2013, Section II): the share of the
    most frequent value.

    Parameters
    ----------
    actual : array_like
        The true sensitive values.

    Returns
    -------
    float
        ``max_v #{actual == v} / len(actual)``.

    Raises
    ------
    ValueError
        If ``actual`` is empty.

    Examples
    --------
    >>> majority_accuracy(["a", "b", "b", "c"])
    0.5
    """
    actual = pd.Series(np.asarray(actual, dtype=object))
    if actual.empty:
        raise ValueError("actual: expected at least one sensitive value, got none")
    return float(actual.value_counts().iloc[0] / actual.size)


def privacy_breach(predicted: ArrayLike, actual: ArrayLike | None = None, /, *,
                   rho: float | None = None) -> Breach:
    """Empirical privacy ``pi`` and breach increase ``beta = (1 - pi)/rho - 1`` (Section II).

    Parameters
    ----------
    predicted : array_like or privlib.attacks.Prediction
        The attack's predictions (a ``Prediction`` carries ``actual`` too).
    actual : array_like, optional
        True SA values, same length.
    rho : float, optional
        Baseline accuracy; default :func:`majority_accuracy` of ``actual``.

    Returns
    -------
    Breach

    Raises
    ------
    TypeError
        Without ``actual`` and without a ``Prediction``.
    ValueError
        For arrays of different shapes, no record, or ``rho`` outside (0, 1].

    Examples
    --------
    >>> b = privacy_breach(["a", "b", "b", "b"], ["a", "b", "b", "a"])
    >>> b.accuracy, b.rho, b.beta
    (0.75, 0.5, 0.5)
    """
    if actual is None:
        if not hasattr(predicted, "predicted"):
            raise TypeError("actual: expected the true sensitive values (or pass a privlib.attacks.Prediction)")
        predicted, actual = predicted.predicted, predicted.actual
    predicted = np.asarray(predicted, dtype=object)
    actual = np.asarray(actual, dtype=object)
    if predicted.shape != actual.shape or predicted.ndim != 1:
        raise ValueError(f"predicted and actual: expected two 1-d arrays of one length, got shapes "
                         f"{predicted.shape} and {actual.shape}")
    if actual.size == 0:
        raise ValueError("actual: expected at least one record, got none")
    rho = majority_accuracy(actual) if rho is None else float(rho)
    if not 0 < rho <= 1:
        raise ValueError(f"rho: expected a baseline accuracy in (0, 1], got {rho}")
    acc = float(np.mean(predicted == actual))
    return Breach(accuracy=acc, privacy=1.0 - acc, rho=rho, beta=acc / rho - 1.0)


#: The points argument of :func:`best_breach` and :func:`best_error`.
POINTS_DOC = """
Parameters
----------
points : pandas.DataFrame
    Columns ``by``, ``alpha`` and ``beta``, one row per point.
"""
#: Their ``by`` argument, their result and their examples' curves.
BY_CURVES_DOC = """
by : str, default "model"
    The column naming the curve.

Returns
-------
pandas.Series
    One value per curve, in order of first appearance.

Examples
--------
>>> import pandas as pd
>>> pts = pd.DataFrame({"model": ["k", "k", "eps"], "alpha": [0.1, 0.3, 0.2], "beta": [0.5, 0.2, 0.1]})
"""

def _best(points: pd.DataFrame, value: str, bound: str, limit: float, by: str) -> pd.Series:
    """Per curve (``by``), the smallest ``value`` among its points with ``bound <= limit``;
    NaN for a curve with no such point; curves in order of first appearance."""
    check_columns(points, [by, "alpha", "beta"], "points")
    out = points[points[bound] <= limit].groupby(by)[value].min()
    return out.reindex(pd.unique(points[by]))


@shared_doc(points=POINTS_DOC, by_curves=BY_CURVES_DOC)
def best_breach(points: pd.DataFrame, *, max_error: float, by: str = "model") -> pd.Series:
    """Per curve, the lowest breach increase ``beta`` among its points with ``alpha <= max_error``
    (NaN when the curve never gets that accurate) -- reading Figure 5 at a fixed utility.

    {{points}}
    max_error : float
        The utility required.
    {{by_curves}}
    >>> best_breach(pts, max_error=0.2).tolist()
    [0.5, 0.1]
    """
    return _best(points, "beta", "alpha", max_error, by)


@shared_doc(points=POINTS_DOC, by_curves=BY_CURVES_DOC)
def best_error(points: pd.DataFrame, *, max_breach: float, by: str = "model") -> pd.Series:
    """Per curve, the lowest relative error ``alpha`` among its points with ``beta <= max_breach``
    (NaN when the curve never gives that much privacy) -- reading Figure 5 at a fixed privacy.

    {{points}}
    max_breach : float
        The privacy required.
    {{by_curves}}
    >>> best_error(pts, max_breach=0.3).tolist()
    [0.3, 0.2]
    """
    return _best(points, "alpha", "beta", max_breach, by)


def dominated_by(alpha: float, beta: float, points: pd.DataFrame) -> bool:
    """True if some point of ``points`` has both lower-or-equal error and breach, one strictly.

    Parameters
    ----------
    alpha, beta : float
        The point's error and breach increase.
    points : pandas.DataFrame
        Columns ``alpha`` and ``beta``.

    Returns
    -------
    bool

    Examples
    --------
    >>> import pandas as pd
    >>> dominated_by(0.3, 0.5, pd.DataFrame({"alpha": [0.2], "beta": [0.5]}))
    True
    """
    a, b = points["alpha"].to_numpy(), points["beta"].to_numpy()
    return bool(np.any((a <= alpha) & (b <= beta) & ((a < alpha) | (b < beta))))
