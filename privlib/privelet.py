"""Privelet: range-count histograms through the Haar wavelet under differential privacy.

Xiao, Wang & Gehrke, *Differential Privacy via Wavelet Transforms*, ICDE 2010 (extended in IEEE
TKDE 23(8), 2011).  The counts of a one-dimensional ordinal domain of size ``m`` (padded to a
power of two, ``m = 2^h``) are the leaves of a complete binary tree, the *decomposition tree* of
the Haar wavelet transform (Section IV-A):

* the **base coefficient** ``c0`` is the mean of all ``m`` counts;
* every internal node ``c`` holds the coefficient ``c = (a1 - a2) / 2``, with ``a1`` and ``a2``
  the means of the counts in its left and right subtrees;
* a count is recovered as ``c0 + sum_{c on its path} g_c c``, ``g_c = +1`` when the count lies
  in ``c``'s left subtree and ``-1`` in its right one.

The **weight function** ``W_Haar`` gives ``c0`` the weight ``m`` and a coefficient the number of
leaves under its node (``2^(h - i + 1)`` at level ``i``, the root at level 1).  Adding or removing
one record changes ``c0`` by ``1/m`` and each of the ``h`` coefficients on its path by
``1/W(c)``, so the *generalized sensitivity* of the Haar transform with respect to ``W_Haar`` is
``rho = 1 + log2 m`` (the paper's lemma on ``W_Haar``).  Privelet adds Laplace noise of
magnitude ``lambda / W(c)`` to every coefficient and inverts the transform; under adding or
removing one record that is ``(rho / lambda)``-DP (the paper states ``2 rho / lambda`` for its
neighbour relation, one tuple changed, which moves two counts), so ``lambda = rho / eps``.

**Exact integer noise.**  ``W(c) * c`` is an integer: ``m c0 = S`` (the total) and
``W(c) c = S1 - S2`` (the left subtree's total minus the right one's).  Noise of magnitude
``lambda / W(c)`` on ``c`` is noise of magnitude ``lambda`` on these integers, whose vector has L1
sensitivity ``rho`` under adding or removing one record (the total and the ``h`` differences on
the record's path each move by one).  Here they get privlib's exact discrete Laplace noise
(:func:`privlib.mechanisms.discrete_laplace`, the integer counterpart of Lap(rho / eps)), so the
release is ``eps``-DP; the inverse transform (post-processing) runs top-down: a node of noisy
total ``T`` and noisy difference ``D`` has children of totals ``(T + D) / 2`` and ``(T - D) / 2``.
Padding cells (the domain is public) are transformed and noised like the others and dropped
from the returned counts.  The paper's multi-dimensional Privelet (one transform per dimension)
and its nominal wavelet are not implemented: a multi-dimensional histogram is flattened in a
fixed public order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._docs import shared_doc
from ._validation import check_int
from .accounting import Ledger, LedgerEntry
from .hierarchical import COUNTS_DOC, _check_counts

__all__ = ["PriveletHistogram", "haar_coefficients", "haar_inverse", "privelet_histogram"]

#: Largest number of leaves (after padding to a power of two) :func:`privelet_histogram` builds.
MAX_LEAVES = 2 ** 26


@dataclass(frozen=True, eq=False)
class PriveletHistogram:
    """A Privelet release.

    Attributes
    ----------
    counts : numpy.ndarray of float
        The leaf counts after the inverse transform, one per cell of the input (padding
        dropped); any range query is the sum of its leaves.
    sensitivity : int
        The generalized sensitivity ``rho = 1 + log2 m`` of the padded domain.
    ledger : privlib.accounting.Ledger
        One entry of ``eps``.

    Examples
    --------
    >>> r = privelet_histogram([1, 2, 3], eps=1.0, rng=0)
    >>> r.sensitivity, r.counts.shape
    (3, (3,))
    """

    counts: np.ndarray
    sensitivity: int
    ledger: Ledger


def haar_coefficients(counts: ArrayLike) -> np.ndarray:
    """The integer Haar coefficients ``W(c) * c`` of a histogram, padded to a power of two.

    Entry 0 is ``m c0``, the total; entries ``2^j .. 2^(j+1) - 1`` are the nodes of level
    ``j + 1`` (the root at level 1) from left to right, each its left subtree's total minus its
    right one's (``W_Haar(c) * c`` with ``c = (a1 - a2) / 2``; Xiao et al. 2010, Section IV-A).

    Parameters
    ----------
    counts : array_like of int
        Non-negative integer counts of a one-dimensional domain.

    Returns
    -------
    numpy.ndarray of int64
        ``m`` coefficients, ``m`` the smallest power of two at least ``len(counts)``.

    Examples
    --------
    The hand-worked case of the tests: counts 3, 0, 1, 4; the total 8, the root's difference
    (3 + 0) - (1 + 4) = -2, then 3 - 0 and 1 - 4.

    >>> haar_coefficients([3, 0, 1, 4]).tolist()
    [8, -2, 3, -3]
    """
    x = _check_counts(counts)
    m = 1 << int(x.size - 1).bit_length() if x.size > 1 else 1
    if m > MAX_LEAVES:
        raise ValueError(f"counts: {x.size:,} cells pad to {m:,} leaves, more than MAX_LEAVES = {MAX_LEAVES:,}")
    level = np.concatenate([x, np.zeros(m - x.size, np.int64)])
    diffs = []
    while level.size > 1:                     # bottom-up: the differences of one level, then its sums
        pairs = level.reshape(-1, 2)
        diffs.append(pairs[:, 0] - pairs[:, 1])
        level = pairs.sum(axis=1)
    return np.concatenate([level, *diffs[::-1]])


def haar_inverse(coefficients: ArrayLike, *, size: int | None = None) -> np.ndarray:
    """The counts of integer Haar coefficients (the inverse of :func:`haar_coefficients`).

    Top-down: a node of total ``T`` and difference ``D`` has children of totals ``(T + D) / 2``
    and ``(T - D) / 2``; this equals the paper's ``c0 + sum_c g_c c`` for every leaf.

    Parameters
    ----------
    coefficients : array_like of float
        ``m`` coefficients in :func:`haar_coefficients`' order, ``m`` a power of two.
    size : int, optional
        Keep the first ``size`` leaves (drop the padding).

    Returns
    -------
    numpy.ndarray of float

    Examples
    --------
    >>> haar_inverse([8, -2, 3, -3]).tolist()
    [3.0, 0.0, 1.0, 4.0]
    >>> haar_inverse([9, -2, 3, -3]).tolist()      # one more in the total: a quarter per leaf
    [3.25, 0.25, 1.25, 4.25]
    """
    c = np.asarray(coefficients, dtype=float)
    if c.ndim != 1 or c.size == 0 or c.size & (c.size - 1):
        raise ValueError(f"coefficients: expected a one-dimensional array whose length is a power of two, got shape "
                         f"{c.shape}")
    if not np.all(np.isfinite(c)):
        raise ValueError("coefficients: expected finite values")
    size = c.size if size is None else check_int(size, "size", minimum=1)
    if size > c.size:
        raise ValueError(f"size: expected at most {c.size} (the number of coefficients), got {size}")
    totals = c[:1]
    j = 1
    while j < c.size:
        d = c[j:2 * j]
        totals = np.column_stack([(totals + d) / 2, (totals - d) / 2]).ravel()
        j *= 2
    return totals[:size]


@shared_doc(counts=COUNTS_DOC)
def privelet_histogram(counts: ArrayLike, *, eps: float, rng: int | np.random.Generator) -> PriveletHistogram:
    """Release a histogram through Privelet with the Haar wavelet (Xiao, Wang & Gehrke 2010).

    Every integer coefficient ``W(c) * c`` (:func:`haar_coefficients`) gets exact discrete
    Laplace noise of scale ``rho / eps``, ``rho = 1 + log2 m`` (the Haar transform's generalized
    sensitivity; Lap(lambda / W(c)) on ``c`` with ``lambda = rho / eps``), and the noisy
    coefficients are inverted (:func:`haar_inverse`).  ``eps``-DP under adding or removing one
    record.

    {{counts}}
    eps : float
        The budget, finite and > 0.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    PriveletHistogram

    Raises
    ------
    TypeError, ValueError
        For counts that are not a non-empty one-dimensional array of non-negative integers (or
        whose total could overflow int64), a bad ``eps``, or more than ``MAX_LEAVES`` leaves.

    Examples
    --------
    >>> r = privelet_histogram([3, 0, 1, 4], eps=1e6, rng=0)      # almost no noise
    >>> r.sensitivity, r.counts.round(6).tolist(), r.ledger.total()
    (3, [3.0, 0.0, 1.0, 4.0], 1000000.0)
    >>> r = privelet_histogram([3, 0, 1, 4, 2], eps=0.5, rng=0)
    >>> r.sensitivity, r.counts.shape                             # padded to 8 leaves
    (4, (5,))
    """
    from .mechanisms import discrete_laplace
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.integer, np.floating)) or not (
            np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps: expected a finite number > 0, got {eps!r}")
    x = _check_counts(counts)
    coef = haar_coefficients(x)
    rho = 1 + int(coef.size).bit_length() - 1
    noisy = np.asarray(discrete_laplace(coef, eps=float(eps), sensitivity=rho, rng=rng), dtype=float)
    ledger = Ledger([LedgerEntry("discrete laplace (privelet)", float(eps), "sequential",
                                 detail=f"{coef.size} Haar coefficients W(c) c, generalized sensitivity "
                                        f"rho = 1 + log2 m = {rho}, scale rho/eps (Xiao, Wang & Gehrke 2010)")])
    ledger.check(float(eps))
    return PriveletHistogram(haar_inverse(noisy, size=x.size), rho, ledger)
