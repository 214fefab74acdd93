"""Hierarchical histograms for range queries under differential privacy (Hay et al. 2010).

Hay, Rastogi, Miklau & Suciu, *Boosting the Accuracy of Differentially Private Histograms
Through Consistency*, PVLDB 3(1), 2010: the counts of a one-dimensional domain are the leaves of
a complete ``b``-ary tree; every node's count (the sum of its leaves) is released with Laplace
noise.  A record falls in one node per level, so with ``L`` levels the vector of all node counts
has L1 sensitivity ``L`` and each node gets noise of scale ``L / eps`` (Section 3, the query
sequence H).  *Constrained inference* (Section 4, Theorem 3) then returns the least-squares
counts that are consistent (every parent equals the sum of its children) in two linear passes:

* bottom-up, for a node ``v`` at height ``l`` (leaves: ``l = 1``) with noisy count ``h~[v]``,
  ``z[v] = (b^l - b^(l-1)) / (b^l - 1) h~[v] + (b^(l-1) - 1) / (b^l - 1) sum_{u child of v} z[u]``
  (``z = h~`` at the leaves);
* top-down, ``h-[root] = z[root]`` and ``h-[v] = z[v] + (h-[parent] - sum_{u child of parent} z[u]) / b``.

Here the noise is privlib's exact discrete Laplace (:func:`privlib.mechanisms.discrete_laplace`,
the integer counterpart of Lap(L / eps)), so every released node count is exact and the release
is ``eps``-DP under adding or removing one record; constrained inference is post-processing.  A
domain whose size is not a power of ``b`` is padded with empty leaves (public: the domain is
public); they are noised like every leaf and dropped from the returned counts.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._docs import shared_doc
from ._validation import as_generator, check_int
from .accounting import Ledger, LedgerEntry

__all__ = ["HierarchicalHistogram", "hierarchical_histogram"]

#: Largest number of tree nodes :func:`hierarchical_histogram` builds.
MAX_NODES = 50_000_000

#: The counts a histogram release reads (also Privelet's, :func:`privlib.privelet.privelet`).
COUNTS_DOC = """
Parameters
----------
counts : array_like of int
    The true counts of a one-dimensional public domain (a multi-dimensional histogram
    flattened in a fixed public order), non-negative integers.
"""


@dataclass(frozen=True, eq=False)
class HierarchicalHistogram:
    """A hierarchical DP histogram after constrained inference.

    Attributes
    ----------
    counts : numpy.ndarray of float
        The consistent leaf counts, one per cell of the input (padding dropped); any range
        query is the sum of its leaves.
    levels : int
        Levels of the tree (its L1 sensitivity).
    branching : int
        The tree's branching factor ``b``.
    ledger : privlib.accounting.Ledger
        One entry of ``eps``.

    Examples
    --------
    >>> r = hierarchical_histogram([1, 2, 3], eps=1.0, branching=4, rng=0)
    >>> r.levels, r.branching, r.counts.shape
    (2, 4, (3,))
    """

    counts: np.ndarray
    levels: int
    branching: int
    ledger: Ledger


def _check_counts(counts: ArrayLike) -> np.ndarray:
    """``counts`` as a 1-D int64 array of non-negative integer counts whose total fits int64
    (shared by :mod:`privlib.privelet`); a bad input raises naming the argument."""
    x = np.asarray(counts)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"counts: expected a non-empty one-dimensional array, got shape {x.shape}")
    if x.dtype.kind not in "iuf" or x.dtype.kind == "b":
        raise TypeError(f"counts: expected integer counts, got dtype {x.dtype}")
    if x.dtype.kind == "f" and not np.all(np.isfinite(x) & (x == np.round(x))):
        raise ValueError("counts: expected integer-valued counts, got non-integral or non-finite floats")
    if (x < 0).any():
        raise ValueError(f"counts: expected non-negative counts, got {x.min()!r}")
    if x.dtype.kind == "f" and x.max() >= 2.0 ** 53 or x.dtype.kind == "u" and x.max() >= 2 ** 62:
        raise ValueError(f"counts: expected counts below 2**53, got {x.max()!r}")
    x = x.astype(np.int64)
    if int(x.max()) > (2 ** 62) // x.size:
        raise ValueError(f"counts: the total may overflow int64 (largest count {int(x.max())} over {x.size} cells)")
    return x


@shared_doc(counts=COUNTS_DOC)
def hierarchical_histogram(counts: ArrayLike, *, eps: float, branching: int = 2,
                           rng: int | np.random.Generator) -> HierarchicalHistogram:
    """Release a histogram through Hay et al.'s noisy tree and constrained inference (H_b-bar).

    {{counts}}
    eps : float
        The budget, > 0; every node count gets exact discrete Laplace noise of scale
        ``levels / eps``.
    branching : int, default 2
        The tree's branching factor, at least 2.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    HierarchicalHistogram

    Raises
    ------
    TypeError, ValueError
        For counts that are not a non-empty one-dimensional array of non-negative integers, a
        bad ``eps`` or ``branching``, or a tree of more than ``MAX_NODES`` nodes.

    Examples
    --------
    >>> r = hierarchical_histogram([3, 0, 1, 4], eps=1e6, rng=0)    # almost no noise
    >>> r.levels, r.counts.round(6).tolist(), r.ledger.total()
    (3, [3.0, 0.0, 1.0, 4.0], 1000000.0)
    >>> r = hierarchical_histogram([3, 0, 1, 4], eps=0.5, rng=0)
    >>> bool(np.isclose(r.counts[:2].sum() + r.counts[2:].sum(), r.counts.sum()))
    True
    """
    from .mechanisms import discrete_laplace
    x = _check_counts(counts)
    b = check_int(branching, "branching", minimum=2)
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.integer, np.floating)) or not (
            np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps: expected a finite number > 0, got {eps!r}")
    h = 0
    while b ** h < x.size:
        h += 1
    levels = h + 1
    n_leaves = b ** h
    n_nodes = (b ** levels - 1) // (b - 1)
    if n_nodes > MAX_NODES:
        raise ValueError(f"counts: a {b}-ary tree over {x.size:,} cells has {n_nodes:,} nodes, more than "
                         f"MAX_NODES = {MAX_NODES:,}")
    gen = as_generator(rng)
    # true node counts, level by level from the leaves (level h) to the root (level 0)
    true = [np.concatenate([x, np.zeros(n_leaves - x.size, np.int64)])]
    for _ in range(h):
        true.append(true[-1].reshape(-1, b).sum(axis=1))
    flat = np.concatenate(true)
    noisy = np.asarray(discrete_laplace(flat, eps=float(eps), sensitivity=levels, rng=gen), dtype=float)
    sizes = [t.size for t in true]
    noisy_levels = np.split(noisy, np.cumsum(sizes)[:-1])          # leaves first, root last
    # bottom-up pass (Theorem 3): z at height l = 1 (leaves) .. levels (root)
    z = [noisy_levels[0]]
    for l in range(2, levels + 1):
        child_sum = z[-1].reshape(-1, b).sum(axis=1)
        w = (b ** l - b ** (l - 1)) / (b ** l - 1)
        z.append(w * noisy_levels[l - 1] + (1 - w) * child_sum)
    # top-down pass
    hbar = z[-1]
    for l in range(levels - 1, 0, -1):
        zc = z[l - 1].reshape(-1, b)
        hbar = (zc + ((hbar - zc.sum(axis=1)) / b)[:, None]).ravel()
    ledger = Ledger([LedgerEntry("discrete laplace (hierarchical)", float(eps), "sequential",
                                 detail=f"{levels} levels of a {b}-ary tree, sensitivity {levels}, scale "
                                        f"{levels}/eps per node (Hay et al. 2010)")])
    ledger.check(float(eps))
    return HierarchicalHistogram(hbar[:x.size], levels, b, ledger)
