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

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from ._validation import check_distribution, check_in, check_positive
from .hierarchy import Hierarchy

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "DISTANCES",
    "EMD_METHODS",
    "EMD_MEMORY_LIMIT",
    "ground_distance",
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


def variational_distance(p: ArrayLike, q: ArrayLike) -> float | np.ndarray:
    """Variational (total variation) distance ``sum_i |p_i - q_i| / 2`` (slide "Distance measurements").

    Parameters
    ----------
    p : array of shape (m,) or (n, m)
        A distribution, or one per row.
    q : array of shape (m,)
        The distribution compared with.

    Returns
    -------
    float or ndarray of shape (n,)

    Raises
    ------
    ValueError
        For vectors that are not distributions over the same ``m`` values.

    Examples
    --------
    >>> variational_distance([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    0.5
    """
    p, q = _pair(p, q)
    return _out(0.5 * np.abs(p - q).sum(axis=-1))


def kl_divergence(p: ArrayLike, q: ArrayLike, *, base: float = np.e) -> float | np.ndarray:
    """Kullback--Leibler divergence ``sum_i p_i log(p_i / q_i)`` (slide "Distance measurements").

    Terms with ``p_i = 0`` contribute 0; a ``p_i > 0`` where ``q_i = 0`` gives ``inf``.

    Parameters
    ----------
    p : array of shape (m,) or (n, m)
        A distribution, or one per row.
    q : array of shape (m,)
    base : float
        Base of the logarithm: ``e`` (nats) by default, ``2`` for bits.

    Returns
    -------
    float or ndarray of shape (n,)

    Raises
    ------
    ValueError, TypeError
        For vectors that are not distributions over the same values, or a bad ``base``.

    Examples
    --------
    >>> round(kl_divergence([0.5, 0.5], [0.25, 0.75], base=2), 4)
    0.2075
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


def emd_equal(p: ArrayLike, q: ArrayLike) -> float | np.ndarray:
    """EMD under the equal ground distance (every two values at distance 1).

    Equals the variational distance: ``D = 1/2 sum_i |p_i - q_i|`` (slide "Equal Distance").

    Parameters
    ----------
    p : array of shape (m,) or (n, m)
        A distribution, or one per row.
    q : array of shape (m,)

    Returns
    -------
    float or ndarray of shape (n,)

    Examples
    --------
    >>> emd_equal([1.0, 0.0, 0.0], [0.0, 0.5, 0.5])
    1.0
    """
    return variational_distance(p, q)


def emd_ordered(p: ArrayLike, q: ArrayLike) -> float | np.ndarray:
    """EMD under the ordered ground distance ``|i - j| / (m - 1)`` over an ordered domain.

    ``D[P, Q] = 1/(m-1) * sum_{i=1}^{m} |sum_{j<=i} r_j|``, ``r = p - q`` (slide "Numerical
    Distances").

    Parameters
    ----------
    p : array of shape (m,) or (n, m)
        A distribution, or one per row, aligned with ``q`` on the sorted domain.
    q : array of shape (m,)

    Returns
    -------
    float or ndarray of shape (n,)
        0 when ``m < 2``.

    Examples
    --------
    >>> import numpy as np
    >>> sal = np.arange(3, 12)                      # the slides' salaries 3k .. 11k
    >>> round(emd_ordered(np.isin(sal, [3, 4, 5]) / 3, np.full(9, 1 / 9)), 4)   # D[P1, Q] = 0.375
    0.375
    """
    p, q = _pair(p, q)
    m = q.shape[0]
    if m < 2:
        return _out(np.zeros(p.shape[:-1]))
    cums = np.cumsum(p - q, axis=-1)[..., :-1]
    return _out(np.abs(cums).sum(axis=-1) / (m - 1))


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


def emd_hierarchical(p: Mapping | ArrayLike, q: Mapping | ArrayLike, hierarchy: Hierarchy) -> float | np.ndarray:
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

    Returns
    -------
    float or ndarray of shape (n,)

    Raises
    ------
    TypeError
        For a ``hierarchy`` that is not a :class:`~privlib.hierarchy.Hierarchy`.
    HierarchyError, ValueError
        For a key that is not a leaf, or arrays not over the hierarchy's leaves.

    Examples
    --------
    >>> from privlib.hierarchy import Hierarchy
    >>> h = Hierarchy.from_dict({"*": {"resp": ["flu", "pneumonia"], "dig": ["ulcer", "gastritis"]}})
    >>> emd_hierarchical({"flu": 1.0}, {"flu": 0.5, "pneumonia": 0.5}, h)
    0.25
    >>> emd_hierarchical({"flu": 1.0}, {"ulcer": 1.0}, h)
    1.0
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy: expected a privlib Hierarchy, got {type(hierarchy).__name__}")
    pv = _as_leaf_vector(p, hierarchy, "p")
    qv = _as_leaf_vector(q, hierarchy, "q")
    pv, qv = _pair(pv, qv)
    A, C, w = hierarchy.emd_matrices()
    r = np.atleast_2d(pv - qv)
    extra = np.asarray((A.T @ r.T).T)                                    # n x nodes (sparse @ dense)
    pos = np.asarray(np.clip(extra, 0, None) @ C)                        # n x inner
    neg = np.asarray(np.clip(-extra, 0, None) @ C)
    d = (np.minimum(pos, neg) * w).sum(axis=1)
    return _out(d[0] if pv.ndim == 1 else d)


DISTANCES = ("equal", "ordered", "hierarchical")
"""The ground distances of t-closeness (slides "Equal Distance", "Numerical Distances",
"Hierarchical Distance")."""


def ground_distance(distance: str, *, hierarchy: Hierarchy | None = None) -> Callable:
    """The EMD closed form of one ground distance, as a function ``(P, q) -> distances``.

    The one dispatcher every t-closeness check uses (:mod:`privlib.requirements`,
    :mod:`privlib.models`, the lattice search and Mondrian).

    Parameters
    ----------
    distance : {"equal", "ordered", "hierarchical"}
        ``equal``: :func:`emd_equal`; ``ordered``: :func:`emd_ordered` over the order of
        the domain; ``hierarchical``: :func:`emd_hierarchical` over ``hierarchy.leaves``.
    hierarchy : Hierarchy, optional
        Required for ``distance="hierarchical"``, ignored otherwise.

    Returns
    -------
    callable
        ``f(P, q)``: the EMD of each row of ``P`` (or of the single distribution ``P``) to ``q``,
        a float for a 1-d ``P`` and an array for a 2-d one.

    Raises
    ------
    ValueError
        For an unknown ``distance``, or ``distance="hierarchical"`` without a ``Hierarchy``.

    Examples
    --------
    >>> import numpy as np
    >>> f = ground_distance("ordered")
    >>> P = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    >>> f(P, np.array([0.2, 0.3, 0.5])).round(3).tolist()
    [0.65, 0.35]
    """
    check_in(distance, "distance", DISTANCES)
    if distance == "equal":
        return emd_equal
    if distance == "ordered":
        return emd_ordered
    if not isinstance(hierarchy, Hierarchy):
        raise ValueError("hierarchy: distance='hierarchical' needs a privlib Hierarchy, got "
                         f"{type(hierarchy).__name__}")

    def hierarchical(P, q):
        return emd_hierarchical(P, q, hierarchy)

    return hierarchical


def _check_ground(ground, m, *, values=True):
    g = np.asarray(ground, dtype=float)
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise ValueError(f"ground: expected a square ground-distance matrix, got shape {g.shape}")
    if g.shape[0] != m:
        raise ValueError(f"ground: expected a {m} x {m} matrix for distributions of length {m}, got {g.shape}")
    if not values:
        return g
    if not np.all(np.isfinite(g)):
        raise ValueError("ground: expected finite distances, got NaN or inf")
    if np.any(g < 0):
        raise ValueError(f"ground: expected non-negative distances, got a minimum of {g.min():.6g}")
    return g


EMD_METHODS = ("network_simplex", "highs")
"""Solvers of :func:`emd_flow`: POT's exact network simplex (default) or SciPy's HiGHS LP."""

EMD_MEMORY_LIMIT = 2 * 1024 ** 3
"""Default ``max_memory`` of :func:`emd` and :func:`emd_flow` (bytes): 2 GiB.

The general EMD has ``m^2`` flow variables; measured peaks (``benchmarks/bench_closeness.py``
machine, m = 1,000-3,000 and 300-600) are about 26 bytes per variable for the network simplex
and 1.3-1.6 kB for HiGHS, estimated as 32 and 1,600.  A domain whose estimate is above the
limit is refused before any allocation (a solver that runs out of memory aborts the whole
process, a notebook kernel with it): 2 GiB admits about 8,000 values for the network simplex
and 1,100 for HiGHS.
"""
_BYTES_PER_PAIR = {"network_simplex": 32, "highs": 1600}


def _closed_form(g):
    """``emd_ordered`` or ``emd_equal`` when ``g`` is their ground distance (checked in row blocks), else None."""
    m = g.shape[0]
    if m < 2:
        return None
    cols = np.arange(m)
    forms = {"ordered": emd_ordered, "equal": emd_equal}
    for i0 in range(0, m, 256):
        rows = np.arange(i0, min(i0 + 256, m))[:, None]
        block = g[i0:i0 + 256]
        if "ordered" in forms and not np.allclose(block, np.abs(rows - cols) / (m - 1), rtol=1e-12, atol=0):
            del forms["ordered"]
        if "equal" in forms and not np.array_equal(block, (rows != cols).astype(float)):
            del forms["equal"]
        if not forms:
            return None
    return next(iter(forms.values()))


def _check_memory(m, method, max_memory):
    need = _BYTES_PER_PAIR[method] * m * m
    if need > max_memory:
        raise ValueError(
            f"ground: the general EMD over a domain of {m:,} values has {m * m:,} flow variables and needs about "
            f"{need / 2 ** 30:.2f} GiB with method={method!r}, above max_memory = {max_memory / 2 ** 30:.2f} GiB; "
            "for an ordered, equal or hierarchical ground distance use the closed forms emd_ordered, emd_equal or "
            "emd_hierarchical (linear in the domain), or raise max_memory if the machine has the memory")


def _emd_highs(p, q, g):
    from scipy import optimize, sparse   # imported on first use: only the LP check needs them

    m = q.shape[0]
    # equality constraints: sum_j f_ij = p_i ; sum_i f_ij = q_j
    eye = sparse.identity(m, format="csr")
    ones = sparse.csr_matrix(np.ones((1, m)))
    a_rows = sparse.kron(eye, ones)          # row sums
    a_cols = sparse.kron(ones, eye)          # column sums
    a_eq = sparse.vstack([a_rows, a_cols]).tocsr()
    b_eq = np.concatenate([p, q])
    res = optimize.linprog(g.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if res.status != 0:  # pragma: no cover - the problem is always feasible and bounded
        raise RuntimeError(f"EMD linear program failed: {res.message}")
    return float(res.fun), res.x.reshape(m, m)


def _emd_network_simplex(p, q, g):
    import ot   # imported on first use: POT is only needed for a general ground distance

    m = q.shape[0]
    flow, log = ot.emd(np.ascontiguousarray(p, dtype=np.float64), np.ascontiguousarray(q, dtype=np.float64),
                       np.ascontiguousarray(g, dtype=np.float64), numItermax=max(100_000, 100 * m * m), log=True)
    if log.get("result_code", 1) != 1:   # pragma: no cover - 1 is OPTIMAL in POT's network simplex
        raise RuntimeError(f"EMD network simplex failed: {log.get('warning')}")
    return float(np.sum(flow * g)), flow


def emd_flow(p: ArrayLike, q: ArrayLike, ground: ArrayLike, *, method: str = "network_simplex",
             max_memory: float = EMD_MEMORY_LIMIT) -> tuple[float, np.ndarray]:
    """Solve the EMD transportation problem; return ``(distance, flow)``.

    Minimises ``sum_ij d_ij f_ij`` subject to ``f_ij >= 0``, row sums ``p`` and column sums
    ``q`` (the balanced form of constraints c1--c3 of slide "Earth Mover Distance").

    Parameters
    ----------
    p, q : array of shape (m,)
        Two distributions over the same ``m`` values.
    ground : array of shape (m, m)
        Ground distances ``d_ij`` (finite, non-negative).
    method : {"network_simplex", "highs"}
        ``network_simplex``: POT's exact network simplex (``ot.emd``, Bonneel et al. 2011);
        ``highs``: SciPy's HiGHS on the dense linear program (``m^2`` variables; kept as a
        second, independent solver -- it is 26-640x slower, see ``benchmarks/bench_closeness.py``).
    max_memory : float, default :data:`EMD_MEMORY_LIMIT` (2 GiB)
        Bytes the solver may use: a larger domain is refused before anything is allocated
        (``float("inf")``: no limit).

    Returns
    -------
    distance : float
        ``sum_ij d_ij f_ij`` at the optimum.
    flow : ndarray of shape (m, m)
        ``flow[i, j]`` is the mass moved from value ``i`` of ``p`` to value ``j`` of ``q``.

    Raises
    ------
    ValueError
        For distributions of different lengths, a ground matrix that is not ``m x m``,
        finite and non-negative, an unknown ``method``, or a domain whose estimated memory
        (:data:`EMD_MEMORY_LIMIT`) is above ``max_memory`` (the message names both).

    Examples
    --------
    >>> import numpy as np
    >>> g = np.abs(np.subtract.outer(np.arange(3), np.arange(3))) / 2
    >>> d, f = emd_flow([1.0, 0.0, 0.0], [0.0, 0.5, 0.5], g)
    >>> round(d, 3), f.round(2).tolist()
    (0.75, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    """
    check_in(method, "method", EMD_METHODS)
    max_memory = check_positive(max_memory, "max_memory", finite=False)
    p, q = _pair(p, q, batch=False)
    g = _check_ground(ground, q.shape[0], values=False)
    _check_memory(q.shape[0], method, max_memory)
    g = _check_ground(g, q.shape[0])
    if method == "highs":
        return _emd_highs(p, q, g)
    return _emd_network_simplex(p, q, g)


def emd(p: ArrayLike, q: ArrayLike, ground: ArrayLike, *, method: str = "network_simplex",
        max_memory: float = EMD_MEMORY_LIMIT) -> float:
    """General EMD for any ground-distance matrix (the independent check of every closed form).

    A domain too large for ``max_memory`` (:data:`EMD_MEMORY_LIMIT`) whose ground matrix is the
    ordered distance ``|i - j| / (m - 1)`` or the equal distance is computed by
    :func:`emd_ordered` / :func:`emd_equal` (the same distance, in linear time); any other is
    refused with the memory estimate.

    Parameters
    ----------
    p, q : array of shape (m,)
        Two distributions over the same ``m`` values.
    ground : array of shape (m, m)
        Ground distances (finite, non-negative).
    method : {"network_simplex", "highs"}
        The solver (see :func:`emd_flow`); by default POT's exact network simplex (``ot.emd2``
        computes the same value).
    max_memory : float, default :data:`EMD_MEMORY_LIMIT` (2 GiB)
        Bytes the solver may use (see above).

    Returns
    -------
    float
        The EMD of ``p`` to ``q`` under ``ground``.

    Raises
    ------
    ValueError
        As :func:`emd_flow`.

    Examples
    --------
    >>> import numpy as np
    >>> p, q = np.array([0.3, 0.7, 0.0]), np.array([0.2, 0.3, 0.5])
    >>> g = np.abs(np.subtract.outer(np.arange(3), np.arange(3))) / 2
    >>> round(emd(p, q, g), 6) == round(emd_ordered(p, q), 6)
    True
    """
    check_in(method, "method", EMD_METHODS)
    max_memory = check_positive(max_memory, "max_memory", finite=False)
    p, q = _pair(p, q, batch=False)
    m = q.shape[0]
    g = _check_ground(ground, m, values=False)
    if _BYTES_PER_PAIR[method] * m * m > max_memory:
        closed = _closed_form(g)
        if closed is not None:
            return float(closed(p, q))
    return emd_flow(p, q, g, method=method, max_memory=max_memory)[0]
