"""Attacks on anonymized releases: the naive-Bayes adversary of empirical privacy.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section II "Attack model".  The adversary reads a
spatial decomposition (leaves = boxes over the quasi-identifiers, each with a histogram of
the sensitive attribute) and builds a naive-Bayes classifier from it with a *kernel*
approach: the ``n`` occurrences of SA value ``v`` in a leaf covering ``[x, y]`` along QI
``j`` are spread uniformly, weight ``n / |[x, y]|`` on every code of the range.  Summing
the kernels over the leaves gives the joint ``Pr[t.S = v, t.j = u]``; then

    p_i = Pr[S = v_i] prod_j Pr[t.j = tau.j | S = v_i] / sum_v Pr[S = v] prod_j Pr[t.j = tau.j | S = v]

(the source's belief formula), with ``Pr[t.j = u | S = v] = Pr[S = v, t.j = u] / Pr[S = v]``.
Negative noisy counts (differential privacy) are rounded up to zero first.

:func:`leaf_majority` is a second, simpler classifier of the same release (each record gets the
most frequent SA value of the leaf that contains it), for the source's remark that "different
classifiers achieve similar levels of empirical privacy, varying only by low single digit
percentages" (Section II, "Attack model").
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import check_columns, check_in, check_nonempty
from .partition import Decomposition, qi_codes

__all__ = ["Prediction", "naive_bayes", "leaf_majority", "kernel_conditionals"]

#: Largest (codes x SA values) table :func:`kernel_conditionals` builds for one QI; wider QIs
#: (e.g. timestamps) are evaluated only at the attacked codes by :func:`naive_bayes`.
_DENSE_CELLS = 5e7


@dataclass(frozen=True)
class Prediction:
    """The attack's output: one prediction per attacked record.

    Attributes
    ----------
    predicted : ndarray
        The SA value with the highest belief (ties: the first in ``sa_values`` order).
    confidence : ndarray of float
        That highest belief ``p_i``.
    actual : ndarray
        The records' true SA values.
    beliefs : ndarray (records x SA values)
        All beliefs ``p_i`` (rows sum to 1).
    sa_values : tuple

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": range(8), "s": list("aaabbbba")})
    >>> pred = naive_bayes(mondrian(df, ["x"], "s", k=4), df)
    >>> pred.accuracy, pred.beliefs.shape
    (0.75, (8, 2))
    """

    predicted: np.ndarray
    confidence: np.ndarray
    actual: np.ndarray
    beliefs: np.ndarray
    sa_values: tuple

    @property
    def accuracy(self) -> float:
        """Fraction of records whose SA value is predicted correctly (``1 - pi``)."""
        return float(np.mean(self.predicted == self.actual))


def kernel_conditionals(decomposition: Decomposition) -> tuple[np.ndarray, list[np.ndarray]]:
    """Prior ``Pr[S = v]`` and, per QI, the table ``Pr[t.j = u | S = v]`` (codes x SA values).

    Built with a difference array per QI: each leaf adds ``hist / width`` at its lower code
    and subtracts it after its upper code; a cumulative sum spreads the kernels (the source's
    kernel approach, Section II "Attack model"; negative noisy counts rounded up to 0 first).

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
        The release.

    Returns
    -------
    prior : numpy.ndarray
        ``Pr[S = v]``, one float per SA value.
    conditionals : list of numpy.ndarray
        Per QI ``j``, a (codes of the root box x SA values) table; row ``u`` is the code
        ``domain_lower[j] + u``.

    Raises
    ------
    TypeError
        If ``decomposition`` is not a Decomposition.
    ValueError
        If a QI's table would exceed 5e7 cells (a very wide domain such as a timestamp):
        :func:`naive_bayes` handles such QIs without the full table.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": range(4), "s": list("aabb")})
    >>> prior, (cond,) = kernel_conditionals(mondrian(df, ["x"], "s", k=2))
    >>> prior.tolist(), cond[:, 0].tolist()
    ([0.5, 0.5], [0.5, 0.5, 0.0, 0.0])
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    S = decomposition.histograms.shape[1]
    for j, c in enumerate(decomposition.qi):
        W = int(decomposition.domain_upper[j]) - int(decomposition.domain_lower[j]) + 1
        if W * S > _DENSE_CELLS:
            raise ValueError(f"decomposition: quasi-identifier {c!r} has a domain of {W:,} codes; a full table of "
                             f"{W:,} x {S} conditionals is too large (naive_bayes evaluates it at the records only)")
    H = np.clip(decomposition.histograms, 0.0, None)           # round negative noisy counts up to 0
    S = H.shape[1]
    total = H.sum(axis=0)
    prior = total / total.sum() if total.sum() > 0 else np.full(S, 1.0 / S)
    conds = []
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    widths = decomposition.widths
    for j in range(len(decomposition.qi)):
        W = int(dhi[j] - dlo[j] + 1)
        w = H / widths[:, j][:, None]                           # weight per code, per SA value
        diff = np.zeros((W + 1, S))
        np.add.at(diff, decomposition.lower[:, j] - dlo[j], w)
        np.add.at(diff, decomposition.upper[:, j] - dlo[j] + 1, -w)
        joint = np.cumsum(diff, axis=0)[:W]
        joint = np.clip(joint, 0.0, None)                       # float round-off
        with np.errstate(invalid="ignore", divide="ignore"):
            cond = np.where(total > 0, joint / np.where(total > 0, total, 1.0), 0.0)
        conds.append(cond)
    return prior, conds


def _conditionals_at(decomposition: Decomposition, j: int, z: np.ndarray, H: np.ndarray, total: np.ndarray):
    """``Pr[t.j = u | S = v]`` at the 0-based codes ``z`` only (records x SA values): the kernels'
    difference array over the leaves' breakpoints instead of every code of the domain."""
    dlo = int(decomposition.domain_lower[j])
    a = decomposition.lower[:, j] - dlo
    b = decomposition.upper[:, j] - dlo + 1
    points = np.unique(np.concatenate([a, b]))
    w = H / decomposition.widths[:, j][:, None]
    diff = np.zeros((points.size, H.shape[1]))
    np.add.at(diff, np.searchsorted(points, a), w)
    np.add.at(diff, np.searchsorted(points, b), -w)
    joint = np.clip(np.cumsum(diff, axis=0), 0.0, None)[np.searchsorted(points, z, side="right") - 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, joint / np.where(total > 0, total, 1.0), 0.0)


def _prediction(decomposition, actual, beliefs, best) -> "Prediction":
    """The attack's output: the guessed SA value of every record (index ``best``) and its beliefs."""
    values = np.asarray(decomposition.sa_values, dtype=object)
    return Prediction(
        predicted=values[best],
        confidence=beliefs[np.arange(best.size), best],
        actual=actual.to_numpy(dtype=object),
        beliefs=beliefs,
        sa_values=decomposition.sa_values,
    )


def _attacked_records(decomposition, df, sa):
    """The SA column and the QI codes of the attacked records, checked against the release."""
    sa = decomposition.sa if sa is None else sa
    check_nonempty(df, "df")
    check_columns(df, [sa], "sa")
    X = qi_codes(df, list(decomposition.qi))
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    outside = (X < dlo) | (X > dhi)
    if outside.any():
        j = int(np.argmax(outside.any(axis=0)))
        raise ValueError(f"df: quasi-identifier {decomposition.qi[j]!r} has values outside the release's domain "
                         f"[{dlo[j]}, {dhi[j]}]")
    return sa, X


def naive_bayes(decomposition: Decomposition, df: pd.DataFrame, *, qi: Sequence[str] | None = None,
                sa: str | None = None, method: str = "auto") -> Prediction:
    """Attack every record of ``df`` with the kernel naive-Bayes classifier of the source.

    Parameters
    ----------
    decomposition : Decomposition
        The release (exact or noisy histograms).
    df : pandas.DataFrame
        The records attacked (the adversary knows their QIs); usually the original data.
    qi : list of str, optional
        Must equal ``decomposition.qi`` if given.
    sa : str, optional
        Column of ``df`` with the true SA values (default ``decomposition.sa``).
    method : {"auto", "tables", "records"}, default "auto"
        ``"tables"``: the full conditional tables of :func:`kernel_conditionals`, read at the
        records' codes; ``"records"``: the kernels evaluated at the records' codes only (no
        domain-wide table, for timestamps and other very wide QIs; equal up to float
        round-off); ``"auto"``: the tables unless a QI's table would exceed 5e7 cells.

    Returns
    -------
    Prediction
        Predictions, confidences and beliefs; computed in log space.  A value whose
        conditional probability is 0 for every SA value gives no evidence (the record's
        beliefs fall back to the other QIs and the prior).

    Raises
    ------
    TypeError
        If ``decomposition`` is not a Decomposition.
    ValueError
        For a ``qi`` other than the release's, a missing ``sa`` column, an empty ``df``, QI
        values outside the release's domain, a bad ``method``, or ``method="tables"`` on a QI
        too wide for a table.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": range(8), "s": list("aaabbbba")})
    >>> naive_bayes(mondrian(df, ["x"], "s", k=4), df).predicted.tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if qi is not None:
        qi = check_columns(df, qi, "qi")
        if tuple(qi) != tuple(decomposition.qi):
            raise ValueError(f"qi: expected the decomposition's quasi-identifiers {list(decomposition.qi)}, got {qi}")
    check_in(method, "method", ("auto", "tables", "records"))
    sa, X = _attacked_records(decomposition, df, sa)
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    S = decomposition.histograms.shape[1]
    wide = [(int(dhi[j]) - int(dlo[j]) + 1) * S > _DENSE_CELLS for j in range(len(decomposition.qi))]
    if method == "records" or (method == "auto" and any(wide)):   # evaluate at the records' codes (no full tables)
        H = np.clip(decomposition.histograms, 0.0, None)
        total = H.sum(axis=0)
        prior = total / total.sum() if total.sum() > 0 else np.full(S, 1.0 / S)
        conds = [None] * len(decomposition.qi)
    else:
        prior, conds = kernel_conditionals(decomposition)
    with np.errstate(divide="ignore"):
        logp = np.tile(np.log(prior), (X.shape[0], 1))
        for j, cond in enumerate(conds):
            if cond is None:
                rows = np.log(_conditionals_at(decomposition, j, X[:, j] - dlo[j], H, total))
            else:
                lc = np.log(cond)                               # codes x S, -inf where 0
                rows = lc[X[:, j] - dlo[j]]
            dead = np.isneginf(rows).all(axis=1)
            rows[dead] = 0.0                                    # no evidence from this QI
            logp += rows
    bad = np.isneginf(logp).all(axis=1)
    if bad.any():
        with np.errstate(divide="ignore"):
            logp[bad] = np.log(prior)
    mx = logp.max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        w = np.exp(logp - mx)
    w[~np.isfinite(w)] = 0.0
    beliefs = w / w.sum(axis=1, keepdims=True)
    best = np.argmax(logp, axis=1)
    return _prediction(decomposition, df[sa], beliefs, best)


def leaf_majority(decomposition: Decomposition, df: pd.DataFrame, *, sa: str | None = None) -> Prediction:
    """Attack every record with the most frequent SA value of its leaf (a second classifier).

    The adversary locates each record's leaf from its quasi-identifiers and predicts the
    leaf's most frequent SA value (ties: the first in ``sa_values`` order); negative noisy
    counts are rounded up to zero first, as for :func:`naive_bayes`, and a leaf whose counts
    are then all zero predicts the most frequent value of the whole release.  The source
    (Section II, "Attack model") reports that different classifiers give similar empirical
    privacy; this one ignores the kernels and the independence assumption of the naive Bayes.

    Parameters
    ----------
    decomposition : Decomposition
        The release (exact or noisy histograms).
    df : pandas.DataFrame
        The records attacked (their QIs must lie in the release's domain).
    sa : str, optional
        Column of ``df`` with the true SA values (default ``decomposition.sa``).

    Returns
    -------
    Prediction
        ``beliefs`` are the leaf's clipped histogram normalised (the release's when empty).

    Raises
    ------
    TypeError, ValueError
        For a non-Decomposition, an empty ``df``, a missing ``sa`` column or QI values
        outside the release's domain.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": range(8), "s": list("aaabbbba")})
    >>> leaf_majority(mondrian(df, ["x"], "s", k=4), df).predicted.tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    sa, X = _attacked_records(decomposition, df, sa)
    H = np.clip(np.asarray(decomposition.histograms, dtype=float), 0.0, None)
    total = H.sum(axis=0)
    fallback = total / total.sum() if total.sum() > 0 else np.full(H.shape[1], 1.0 / H.shape[1])
    sums = H.sum(axis=1, keepdims=True)
    P = np.where(sums > 0, H / np.where(sums > 0, sums, 1.0), fallback[None, :])
    beliefs = P[decomposition.assign_codes(X)]
    best = np.argmax(beliefs, axis=1)
    return _prediction(decomposition, df[sa], beliefs, best)
