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
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import check_columns, check_nonempty
from .partition import Decomposition, qi_codes

__all__ = ["Prediction", "naive_bayes", "kernel_conditionals"]


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


def kernel_conditionals(decomposition: Decomposition):
    """Prior ``Pr[S = v]`` and, per QI, the table ``Pr[t.j = u | S = v]`` (codes x SA values).

    Built with a difference array per QI: each leaf adds ``hist / width`` at its lower code
    and subtracts it after its upper code; a cumulative sum spreads the kernels.
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
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


def naive_bayes(decomposition: Decomposition, df: pd.DataFrame, qi=None, sa: str | None = None) -> Prediction:
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

    Returns
    -------
    Prediction
        Predictions, confidences and beliefs; computed in log space.  A value whose
        conditional probability is 0 for every SA value gives no evidence (the record's
        beliefs fall back to the other QIs and the prior).
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if qi is not None:
        qi = check_columns(df, qi, "qi")
        if tuple(qi) != tuple(decomposition.qi):
            raise ValueError(f"qi: expected the decomposition's quasi-identifiers {list(decomposition.qi)}, got {qi}")
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
    prior, conds = kernel_conditionals(decomposition)
    with np.errstate(divide="ignore"):
        logp = np.tile(np.log(prior), (X.shape[0], 1))
        for j, cond in enumerate(conds):
            lc = np.log(cond)                                   # codes x S, -inf where 0
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
    values = np.asarray(decomposition.sa_values, dtype=object)
    return Prediction(
        predicted=values[best],
        confidence=beliefs[np.arange(best.size), best],
        actual=df[sa].to_numpy(dtype=object),
        beliefs=beliefs,
        sa_values=decomposition.sa_values,
    )
