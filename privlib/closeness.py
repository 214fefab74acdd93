"""Earth Mover's Distance and the naive distances of t-closeness.

Li, Li & Venkatasubramanian, *t-Closeness: Privacy beyond k-anonymity and l-diversity*
(ICDE 2007), slides "Distance measurements" to "Hierarchical Distance".

Closed forms (each vectorised: ``p`` may be a single distribution or a stack of them,
one per row, compared with the same ``q``):

* :func:`emd_ordered` -- ordered distance, ``D = 1/(m-1) * sum_i |r_1 + ... + r_i|`` with
  ``r = p - q`` (slide "Numerical Distances").
* :func:`emd_equal` -- equal ground distance 1: ``D = 1/2 * sum_i |p_i - q_i|`` (slide
  "Equal Distance").
* :func:`emd_hierarchical` -- ``D = sum_N cost(N)``, ``cost(N) = height(N)/H *
  min(pos_extra(N), neg_extra(N))`` (slide "Hierarchical Distance").

The independent check: :func:`emd` solves the transportation linear program
(constraints c1--c3 of slide "Earth Mover Distance") for any ground-distance matrix with
SciPy's HiGHS solver.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import sparse

from ._validation import check_distribution, check_positive
from .hierarchy import Hierarchy

__all__ = [
    "emd",
    "emd_flow",
    "emd_equal",
    "emd_ordered",
    "emd_hierarchical",
    "variational_distance",
    "kl_divergence",
]


def _as_float(x, name):
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a probability vector of numbers, got {x!r:.80} ({exc})") from None


def _pair(p, q, *, batch: bool = True):
    pi, qi = getattr(p, "index", None), getattr(q, "index", None)
    if pi is not None and qi is not None and hasattr(pi, "equals") and not pi.equals(qi):
        raise ValueError("p and q: pandas objects with different indexes would be compared by position; align "
                         "them first (e.g. q.reindex(p.index, fill_value=0))")
    p = check_distribution(_as_float(p, "p"), "p")
    q = _as_float(q, "q")
    q = check_distribution(q, "q")
    if q.ndim != 1:
        raise ValueError(f"q: expected one distribution (1-d), got shape {q.shape}")
    if p.ndim > 2 or (p.ndim == 2 and not batch):
        raise ValueError(f"p: expected a 1-d distribution{' or a 2-d stack' if batch else ''}, got shape {p.shape}")
    if p.shape[-1] != q.shape[0]:
        raise ValueError(
            f"p and q: expected distributions over the same domain, got lengths {p.shape[-1]} and {q.shape[0]}")
    return p, q


def _out(x):
    return float(x) if np.ndim(x) == 0 else x


def variational_distance(p, q):
    """Variational (total variation) distance ``sum_i |p_i - q_i| / 2`` (slide "Distance measurements")."""
    p, q = _pair(p, q)
    return _out(0.5 * np.abs(p - q).sum(axis=-1))


def kl_divergence(p, q, base: float = np.e):
    """Kullback--Leibler divergence ``sum_i p_i log(p_i / q_i)`` (slide "Distance measurements").

    Terms with ``p_i = 0`` contribute 0; a ``p_i > 0`` where ``q_i = 0`` gives ``inf``.
    Natural logarithm by default (``base=2`` for bits).
    """
    if not isinstance(base, (int, float, np.integer, np.floating)) or isinstance(base, bool):
        raise TypeError(f"base: expected a real number > 0 other than 1, got {type(base).__name__} {base!r}")
    p, q = _pair(p, q)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0) / q), 0.0)
    base = check_positive(base, "base")
    if base == 1.0:
        raise ValueError("base: expected a logarithm base > 0 other than 1, got 1")
    val = terms.sum(axis=-1) / np.log(base)
    return _out(val)


def emd_equal(p, q):
    """EMD under the equal ground distance (every two values at distance 1).

    Equals the variational distance: ``D = 1/2 sum_i |p_i - q_i|``.
    """
    return variational_distance(p, q)


def emd_ordered(p, q):
    """EMD under the ordered ground distance ``|i - j| / (m - 1)`` over an ordered domain.

    ``D[P, Q] = 1/(m-1) * sum_{i=1}^{m} |sum_{j<=i} r_j|``, ``r = p - q``.
    ``p`` and ``q`` must be aligned on the same sorted domain of ``m >= 2`` values.
    """
    p, q = _pair(p, q)
    m = q.shape[0]
    if m < 2:
        return _out(np.zeros(p.shape[:-1]))
    cums = np.cumsum(p - q, axis=-1)[..., :-1]
    return _out(np.abs(cums).sum(axis=-1) / (m - 1))


def _hier_matrices(hierarchy: Hierarchy):
    cache = getattr(hierarchy, "_emd_cache", None)
    if cache is not None:
        return cache
    nodes = [n for n in hierarchy.nodes if not hierarchy.is_leaf(n)]
    node_pos = {n: i for i, n in enumerate(hierarchy.nodes)}
    leaves = hierarchy.leaves
    m = len(leaves)
    all_nodes = hierarchy.nodes
    # leaf -> every node on its path (including itself)
    rows, cols = [], []
    for i, v in enumerate(leaves):
        for a in hierarchy.path(v):
            rows.append(i)
            cols.append(node_pos[a])
    A = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(m, len(all_nodes)))
    # node -> its parent (child indicator of each inner node)
    rows, cols = [], []
    inner_pos = {n: j for j, n in enumerate(nodes)}
    for n in all_nodes:
        par = hierarchy.parent(n)
        if par is not None:
            rows.append(node_pos[n])
            cols.append(inner_pos[par])
    C = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(all_nodes), len(nodes)))
    weights = np.array([hierarchy.node_height(n) for n in nodes], dtype=float) / max(hierarchy.height, 1)
    cache = (A, C, weights)
    hierarchy._emd_cache = cache
    return cache


def _as_leaf_vector(p, hierarchy: Hierarchy, name: str):
    if hasattr(p, "index") and hasattr(p, "to_dict") and getattr(p, "ndim", 0) == 1:   # a pandas Series
        if p.index.has_duplicates:
            raise ValueError(f"{name}: expected a Series indexed by distinct leaves, got duplicates")
        p = p.to_dict()                      # aligned by its index, never by position
    if isinstance(p, Mapping):
        hierarchy.check_values(list(p.keys()))
        vec = np.zeros(len(hierarchy.leaves))
        for k, v in p.items():
            vec[hierarchy._leaf_index[k]] = v
        return vec
    arr = _as_float(p, name)
    if arr.ndim == 0 or arr.shape[-1] != len(hierarchy.leaves):
        raise ValueError(
            f"{name}: expected a mapping leaf -> probability or an array over the {len(hierarchy.leaves)} "
            f"leaves of the hierarchy, got shape {arr.shape}")
    return arr


def emd_hierarchical(p, q, hierarchy: Hierarchy):
    """EMD under the hierarchical ground distance ``level(lca(a, b)) / H``.

    Closed form of the slide "Hierarchical Distance": with ``extra(N) = p_i - q_i`` for a
    leaf and the sum over children otherwise,
    ``D = sum over inner nodes N of height(N)/H * min(pos_extra(N), neg_extra(N))``.

    Parameters
    ----------
    p, q : mapping or Series leaf -> probability, or arrays aligned with ``hierarchy.leaves``
        Leaves absent from a mapping have probability 0; a key that is not a leaf is an error.
        A Series is aligned by its index.
        ``p`` may also be a 2-d array (one distribution per row).
    hierarchy : Hierarchy
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy: expected a privlib Hierarchy, got {type(hierarchy).__name__}")
    pv = _as_leaf_vector(p, hierarchy, "p")
    qv = _as_leaf_vector(q, hierarchy, "q")
    pv, qv = _pair(pv, qv)
    A, C, w = _hier_matrices(hierarchy)
    r = np.atleast_2d(pv - qv)
    extra = np.asarray((A.T @ r.T).T)                                    # n x nodes (sparse @ dense)
    pos = np.asarray(np.clip(extra, 0, None) @ C)                        # n x inner
    neg = np.asarray(np.clip(-extra, 0, None) @ C)
    d = (np.minimum(pos, neg) * w).sum(axis=1)
    return _out(d[0] if pv.ndim == 1 else d)


def _check_ground(ground, m):
    g = np.asarray(ground, dtype=float)
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise ValueError(f"ground: expected a square ground-distance matrix, got shape {g.shape}")
    if g.shape[0] != m:
        raise ValueError(f"ground: expected a {m} x {m} matrix for distributions of length {m}, got {g.shape}")
    if not np.all(np.isfinite(g)):
        raise ValueError("ground: expected finite distances, got NaN or inf")
    if np.any(g < 0):
        raise ValueError(f"ground: expected non-negative distances, got a minimum of {g.min():.6g}")
    return g


def emd_flow(p, q, ground):
    """Solve the EMD transportation problem; return ``(distance, flow)``.

    Minimises ``sum_ij d_ij f_ij`` subject to ``f_ij >= 0``, row sums ``p`` and column sums
    ``q`` (the balanced form of constraints c1--c3), with SciPy's HiGHS solver.
    ``flow[i, j]`` is the mass moved from value ``i`` of ``p`` to value ``j`` of ``q``.
    """
    p, q = _pair(p, q, batch=False)
    m = q.shape[0]
    g = _check_ground(ground, m)
    # equality constraints: sum_j f_ij = p_i ; sum_i f_ij = q_j
    eye = sparse.identity(m, format="csr")
    ones = sparse.csr_matrix(np.ones((1, m)))
    a_rows = sparse.kron(eye, ones)          # row sums
    a_cols = sparse.kron(ones, eye)          # column sums
    a_eq = sparse.vstack([a_rows, a_cols]).tocsr()
    b_eq = np.concatenate([p, q])
    from scipy import optimize   # imported on first use: only the LP check needs it

    res = optimize.linprog(g.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if res.status != 0:  # pragma: no cover - the problem is always feasible and bounded
        raise RuntimeError(f"EMD linear program failed: {res.message}")
    return float(res.fun), res.x.reshape(m, m)


def emd(p, q, ground) -> float:
    """General EMD for any ground-distance matrix, by linear programming (HiGHS).

    The independent check of every closed form in this module.
    """
    return emd_flow(p, q, ground)[0]
