"""DiffGen, Algorithm 1 of Mohammed, Chen, Fung & Yu (KDD 2011)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._docs import shared_doc
from .._validation import as_generator, check_epsilon, check_in, check_int
from ..accounting import Ledger, LedgerEntry
from ..mechanisms import _exponential_draw, _exponential_p, _exponential_scores, discrete_laplace
from ._encoding import SPLIT_CACHE, _derive_classes, _interval_label, _prepare, _Prepared, _validate
from ._pieces import TABLE_1A_DOC
from ._release import Release, _build_release, _group_keys, _specialize
from ._scores import _SCORES, _cat_child_counts, _num_scores, _num_split_table, _sensitivity

#: Largest number of specializations :func:`diffgen` accepts.  The loop of Lines 6-11 costs
#: O(h x candidates) and every specialization multiplies the generalized domain, whose every
#: cell gets Lap(2/eps) noise; the source uses h <= 16.
MAX_H = 1000

#: Line 12 materializes every cell of the generalized domain up to this many cells; above it,
#: the noise of the empty cells is drawn sparsely (same distribution, see ``_noisy_counts``).
DENSE_CELLS = 1 << 22
#: Refuse to release more noisy rows than this (the noise would swamp the data anyway).
MAX_RELEASED_ROWS = 20_000_000


def _noisy_counts(key, y, K, n_groups, eps_half, gen, dense_cells=None):
    """Line 12: every cell (group x class) gets count + exact discrete Laplace noise at eps_half
    (:func:`privlib.mechanisms.discrete_laplace`, integers only), then clipped at 0
    (post-processing).  Returns (cells, counts) of the cells released with a count > 0.

    Cells of the generalized domain that hold no record are treated sparsely: when there are
    more than :data:`DENSE_CELLS` cells, the number of empty cells whose noise is at least 1
    is drawn from its binomial law (p = alpha / (1 + alpha), alpha = exp(-eps_half)), their
    noise from the discrete Laplace law conditioned on >= 1 (abs(Z) given Z != 0), and their
    positions uniformly among the empty cells.
    """
    cells = n_groups * K
    flat = key * K + y
    if cells <= (DENSE_CELLS if dense_cells is None else dense_cells):
        true = np.bincount(flat, minlength=cells)
        noisy = np.maximum(discrete_laplace(true, eps=eps_half, sensitivity=1, rng=gen), 0)
        idx = np.flatnonzero(noisy)
        return idx, noisy[idx]
    occ, true = np.unique(flat, return_counts=True)
    noisy = np.maximum(discrete_laplace(true, eps=eps_half, sensitivity=1, rng=gen), 0)
    n_empty = cells - len(occ)
    alpha = math.exp(-eps_half)
    p = alpha / (1.0 + alpha)
    m = int(gen.binomial(n_empty, p))
    if m > MAX_RELEASED_ROWS:
        raise ValueError(f"h: the generalized domain has {cells:,} cells; about {m:,} empty ones would be "
                         f"released with positive noisy counts -- use fewer specializations or a larger eps")
    extra = np.empty(0, dtype=np.int64)
    while len(extra) < m:
        draw = gen.integers(0, cells, size=int(1.2 * (m - len(extra))) + 16)
        draw = np.setdiff1d(np.unique(np.concatenate([extra, draw])), occ, assume_unique=True)
        extra = draw if len(draw) <= m else gen.choice(draw, size=m, replace=False)
    extra = np.sort(extra)
    extra_counts = np.empty(0, dtype=np.int64)
    while len(extra_counts) < m:                     # |Z| given Z != 0: the law of Z given Z >= 1
        batch = min(int((m - len(extra_counts)) * 1.2 / (2.0 * p)) + 16, 1 << 24)
        z = discrete_laplace(np.zeros(batch, dtype=np.int64), eps=eps_half, sensitivity=1, rng=gen)
        extra_counts = np.concatenate([extra_counts, np.abs(z[z != 0])])
    extra_counts = extra_counts[:m]
    keep = noisy > 0
    idx = np.concatenate([occ[keep], extra])
    cnt = np.concatenate([noisy[keep], extra_counts])
    order = np.argsort(idx, kind="stable")
    return idx[order], cnt[order]


#: Largest number of array elements the split cache of one prepared table holds (about 8 bytes each).
_SPLIT_CACHE_ELEMENTS = 1 << 22


def _split_distribution(prep, a_idx, lo, hi, utility, eps_p, du):
    """The exponential mechanism's distribution over the split points of ``[lo, hi)`` (Lines 4
    and 9): the scores ``u`` of the intervals between data values, each interval's first grid
    index and number of grid points, and ``_exponential_cdf`` of them.  A function of the
    training table and of the public arguments only (no randomness), so it is cached on
    ``prep``: the many releases of a sweep split the same intervals (every release splits
    each full domain at Line 4) and draw from the cached distribution -- the same arrays, the
    same draws as computing them afresh.  The cache holds at most
    :data:`_SPLIT_CACHE_ELEMENTS` array elements (emptied when full) and is not pickled."""
    cache = prep.cache.setdefault(SPLIT_CACHE, {})
    key = (a_idx, lo, hi, utility)
    hit = cache.get(key)
    if hit is None:
        left, total, bounds, _ = _num_split_table(prep, a_idx, lo, hi)
        u = _num_scores(left, total, utility)
        start, counts = _grid_counts(prep.attrs[a_idx], bounds, _inner_first_k(prep, cache, a_idx, bounds))
        hit = cache[key] = (u, start, counts, {})
        _account(cache, 3 * u.size)
    u, start, counts, cdfs = hit
    cdf = cdfs.get((eps_p, du))
    if cdf is None:
        p = _exponential_p(u, eps_p, du, counts.astype(float))   # = exponential_probabilities(u, ...), checked
        cdf = cdfs[(eps_p, du)] = (np.cumsum(p), p.sum())                  # inputs: = _exponential_cdf(...)
        _account(cache, u.size)
    return u, start, counts, cdf


def _account(cache, size):
    """Count ``size`` more cached elements; empty the cache once it holds too many."""
    used = cache.get(None, 0) + size
    if used > _SPLIT_CACHE_ELEMENTS:
        cache.clear()
        used = 0
    cache[None] = used


def _inner_first_k(prep, cache, a_idx, bounds) -> np.ndarray:
    """``prep.attrs[a_idx].first_k(bounds[1:-1], strict=True)`` for the bounds of
    ``_num_split_table`` (``bounds[1:-1]`` are consecutive distinct data values of the attribute):
    a slice of the first grid indices of every distinct value, computed once per attribute and
    kept in the split cache (``first_k`` is elementwise).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 50], "class": ["N", "N", "Y"]})
    >>> prep = _prepare(df, ["age"], "class", {"age": (18, 65)})
    >>> bounds = np.array([25.0, 30.0, 50.0, 65.0])            # [25, 65): the data values 30 and 50 inside
    >>> _inner_first_k(prep, {}, 0, bounds).tolist(), prep.attrs[0].first_k(bounds[1:-1], strict=True).tolist()
    ([13, 33], [13, 33])
    """
    hit = cache.get(("first_k", a_idx))
    v = prep.vals[a_idx]
    if hit is None:
        hit = cache[("first_k", a_idx)] = prep.attrs[a_idx].first_k(v, strict=True)
        _account(cache, hit.size)
    i0 = int(np.searchsorted(v, bounds[0], side="left"))
    return hit[i0:i0 + len(bounds) - 2]


def _grid_counts(a, bounds, inner=None) -> tuple[np.ndarray, np.ndarray]:
    """The first grid index and the number of public grid points ``a.grid(k)`` in each interval ``(bounds[j], bounds[j+1]]``
    of split points, restricted to ``(bounds[0], bounds[-1])`` (the interval's ends are grid
    points or the domain's ends); ``inner``, if given, is ``a.first_k(bounds[1:-1], strict=True)``."""
    k_lo, k_hi = (int(k) for k in a.first_k(np.array([bounds[0], bounds[-1]])))   # elementwise
    if inner is None:
        f = a.first_k(bounds, strict=True)
    else:
        f = np.empty(len(bounds), dtype=np.int64)
        f[1:-1] = inner
    f[0], f[-1] = k_lo + 1, k_hi
    f = np.maximum.accumulate(np.clip(f, k_lo + 1, k_hi))
    return f[:-1], np.diff(f)


def _grid_splittable(a, lo, hi) -> bool:
    """[lo, hi) holds a public grid point strictly inside."""
    k = a.first_k(np.array([lo, hi]))
    return bool(k[1] - k[0] >= 2)


def _check_h(prep, h):
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if not any(a.kind == "numerical" for a in prep.attrs):
        room = sum(a.n_internal for a in prep.attrs)
        if h > room:
            raise ValueError(
                f"h: expected at most {room} specializations (the number of non-leaf taxonomy values; "
                f"with no numerical predictor the cut reaches the leaves after that), got {h}")
    return h


def _check_diffgen_args(eps, h, utility):
    """Validate the scalar arguments of :func:`diffgen` before touching the data."""
    eps = check_epsilon(eps)
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if not isinstance(utility, str):
        raise TypeError(f"utility: expected one of {list(_SCORES)}, got {type(utility).__name__} {utility!r}")
    check_in(utility, "utility", tuple(_SCORES))
    return eps, h, utility


@shared_doc(table_1a=TABLE_1A_DOC)
def diffgen(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *, eps: float,
            h: int, utility: str = "max", classes: Sequence | None = None,
            rng: int | np.random.Generator) -> Release:
    """Release ``df`` under eps-differential privacy by DiffGen (Algorithm 1).

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table D (no missing values).
    predictors : list of str
        Predictor attributes A^pr (distinct).
    target : str
        The class attribute A^cls (categorical: strings, integers, booleans; not floats).
    taxonomies : dict
        Every predictor -> :class:`~privlib.hierarchy.Hierarchy` (categorical) or its public
        numerical domain ``(low, high)``, meaning ``[low, high)`` (e.g.
        :data:`privlib.experiments.diffgen.ADULT_DOMAINS`), or ``(low, high, step)``;
        a value outside it is an error.  Split points are drawn on the public grid
        ``low + k * step`` (``k`` an integer): by default ``step = 1`` when ``low`` and
        ``high`` are integers at least 2 apart, else a power of 2 near ``2**-20 (high - low)``
        (``GRID_BITS``).
    eps : float
        Privacy budget, > 0.
    h : int
        Number of specializations, 0 <= h <= :data:`MAX_H`.  With only categorical predictors,
        at most the number of non-leaf taxonomy values (beyond that there is nothing left to
        specialize: the cut is the leaves and the release is the noisy contingency table);
        with a numerical predictor larger ``h`` are possible, as intervals can be split again,
        until the generalized domain becomes too large to release.
    utility : {"max", "infogain"}
        Score of a candidate: Max (Equation 4, sensitivity 1) or InfoGain (Equation 3,
        sensitivity ``log2 |classes|``).
    classes : sequence, optional
        The public class domain (e.g. :data:`privlib.experiments.diffgen.ADULT_CLASSES`).
        Every class gets a noisy count in every group, whether or not a record holds it.
        When omitted the domain is read
        from the data -- a release then tells apart a neighbour holding a unique class at any
        eps -- and a :class:`~privlib.PrivacyLeakWarning` is issued.
    rng : None, int or numpy.random.Generator
        Required, keyword-only.  ``None``: fresh entropy from the operating system, the choice
        for a real release; an int seed makes the release reproducible -- a demonstration,
        not a private release (whoever knows the seed knows the noise).

    Returns
    -------
    Release
        Noisy counts of every non-empty released cell, the cuts, the history of
        specializations and the :class:`~privlib.accounting.Ledger` (``detail`` names the line
        of Algorithm 1):

        * Line 3: ``eps' = eps / (2 (|A_n^pr| + 2h))``;
        * Line 4: one exponential mechanism per numerical predictor (eps' each, sequential):
          the split point of its full-domain interval (Equation 6).  Deviation: the source
          draws a real split point, an interval weighted by its length then a point uniformly
          inside it; a float drawn inside an interval whose ends are data values carries those
          values in its low-order bits (a neighbour's release can then be told apart with
          certainty).  Here the candidates are the public grid points strictly inside the
          interval: an interval between data values is weighted by its number of grid points,
          then one of them is drawn uniformly (an integer draw), so every release is a grid
          point and the set of possible releases does not depend on the data;
        * Line 7: one exponential mechanism per iteration (eps', sequential) choosing the
          candidate of the current cut, score Max or InfoGain;
        * Line 9: when a numerical value was specialized, one exponential mechanism per new
          interval (eps' each, parallel: the two intervals hold disjoint records);
        * Line 12: Laplace noise Lap(2/eps) on the count of every group x class of the
          generalized domain (eps/2, parallel: the groups are disjoint); here its exact integer
          counterpart, the discrete Laplace (two-sided geometric) noise of
          :func:`privlib.mechanisms.discrete_laplace` at eps/2, clipped at 0 (post-processing).
          Above :data:`DENSE_CELLS` cells the number of released empty cells is drawn by
          numpy's (floating-point) binomial sampler with ``p = alpha / (1 + alpha)`` computed in
          floating point: that one draw is not exact (the occupied cells' noise, the empty
          cells' positions and counts are), and its law is exact only up to the sampler's
          floating-point error.

        ``eps_spent + eps_unspent == eps`` (Theorem 4.1); the ledger is checked against
        ``eps`` before the release is returned.

    Raises
    ------
    ValueError, TypeError
        A bad argument; the message names it (``eps``, ``h``, ``utility``, ``predictors``,
        ``target``, ``taxonomies``, ``classes``, ``df``).
    privlib.hierarchy.HierarchyError
        A value outside its taxonomy or public domain.

    {{table_1a}}
    >>> rel = diffgen(df, ["job", "age"], "class", {"job": job, "age": (18, 65)},
    ...               eps=1.0, h=2, classes=("N", "Y"), rng=0)
    >>> len(rel.history), round(rel.eps_prime, 4), round(rel.eps_spent + rel.eps_unspent, 6)
    (2, 0.1, 1.0)
    """
    eps, h, utility = _check_diffgen_args(eps, h, utility)
    gen = as_generator(rng, release=True)
    validated = _validate(df, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(df, target, "diffgen")
    prep = _prepare(df, predictors, target, taxonomies, classes=classes, validated=validated)
    return _diffgen(prep, eps, h, utility, gen)


def _diffgen(prep: _Prepared, eps, h, utility, gen, labels: bool = True) -> Release:
    """Algorithm 1 on a prepared table (see :func:`diffgen`); ``labels=False`` (internal sweeps,
    which read only the codes) leaves the release's ``cuts`` and ``splits`` empty."""
    h = _check_h(prep, h)
    K = prep.K
    if utility == "infogain" and K < 2:
        raise ValueError(f"utility: InfoGain needs at least 2 classes (its sensitivity log2 |classes| is 0); "
                         f"the class domain is {list(prep.classes)}")
    du = _sensitivity(utility, max(K, 2))
    score_fn = _SCORES[utility]
    n_num = sum(a.kind == "numerical" for a in prep.attrs)
    denom = 2 * (n_num + 2 * h)
    eps_p = eps / denom if denom > 0 else 0.0
    entries: list = []
    history: list = []
    line9_iterations = 0
    p_empty = math.exp(-eps / 2.0) / (1.0 + math.exp(-eps / 2.0))  # P(an empty cell is released): Z >= 1

    # Lines 1-2: the topmost cut
    cut_nodes = [[0] if a.kind == "categorical" else [a.low, a.high] for a in prep.attrs]
    # candidates: (attribute index, key, score, split); key = node id or (lo, hi)
    cands: list = []

    def choose_split(a_idx, lo, hi, line, group):
        u, start, counts, cdf = _split_distribution(prep, a_idx, lo, hi, utility, eps_p, du)
        a = prep.attrs[a_idx]
        # exponential mechanism over the public grid points strictly inside (lo, hi): the grid
        # points of interval j share its score, so pick j weighted by its number of grid points,
        # then one of them uniformly (an integer draw) -- the release is a grid point, a function
        # of public values and of an integer index only
        j = _exponential_draw(cdf, gen)
        s = float(a.grid(int(start[j]) + int(gen.integers(0, counts[j]))))
        entries.append(LedgerEntry("exponential", eps_p, "parallel" if group else "sequential", group=group,
                                   detail=f"Algorithm 1, line {line}: split point of {prep.attrs[a_idx].name} "
                                          f"{_interval_label(lo, hi)}"))
        return float(s), float(u[j])

    def add_cat(a_idx, node):
        a = prep.attrs[a_idx]
        if a.children[node]:
            cands.append((a_idx, node, float(score_fn(_cat_child_counts(prep, a_idx, node))), None))

    # Line 4 (split values of the numerical candidates) and Line 5 (scores)
    for a_idx, a in enumerate(prep.attrs):
        if a.kind == "numerical":
            s, u = choose_split(a_idx, a.low, a.high, 4, "")
            cands.append((a_idx, (a.low, a.high), u, s))
        else:
            add_cat(a_idx, 0)

    sizes = [1] * len(prep.attrs)
    # Lines 6-11
    for it in range(1, h + 1):
        if not cands:
            raise ValueError(f"h: no candidate left to specialize at iteration {it} (every interval is "
                             f"too narrow to split further); expected h <= {it - 1}, got {h}")
        u = np.array([c[2] for c in cands])
        pick = _exponential_scores(u, eps_p, du, gen)   # = exponential(u, eps=eps_p, sensitivity=du, rng=gen)
        entries.append(LedgerEntry("exponential", eps_p, "sequential",
                                   detail=f"Algorithm 1, line 7: iteration {it}, candidate selection "
                                          f"among {len(cands)}"))
        a_idx, key, score, split = cands.pop(pick)
        a = prep.attrs[a_idx]
        new, spec = _specialize(a, cut_nodes[a_idx], key, split, it, score)  # Line 8
        sizes[a_idx] += len(new) - 1
        if a.kind == "categorical":
            for c in new:
                add_cat(a_idx, c)
        else:
            group = f"Algorithm 1, line 9, iteration {it}"
            ran = False
            for clo, chi in new:
                if _grid_splittable(a, clo, chi):
                    s, uu = choose_split(a_idx, clo, chi, 9, group)
                    cands.append((a_idx, (clo, chi), uu, s))
                    ran = True
            line9_iterations += ran
        history.append(spec)
        # the generalized domain must stay releasable (checked as it grows, not after h steps)
        cells = math.prod(sizes) * K
        if cells >= 2 ** 62 or (cells > DENSE_CELLS and (cells - prep.n) * p_empty > 2 * MAX_RELEASED_ROWS):
            raise ValueError(f"h: after {it} specializations the generalized domain has {cells:,} cells, "
                             f"too many to release with noise; use fewer specializations than {h}")

    # Line 12
    key, sizes, n_groups = _group_keys(prep, cut_nodes)
    cells, counts = _noisy_counts(key, prep.y, K, n_groups, eps / 2.0, gen)
    entries.append(LedgerEntry("laplace", eps / 2.0, "parallel", group="Algorithm 1, line 12",
                               detail=f"Algorithm 1, line 12: discrete Laplace at eps/2 (the source's Lap(2/eps)) "
                                      f"on {n_groups * K:,} disjoint "
                                      f"group x class counts"))
    # reserved and not spent: Line 9 of the iterations that did not split an interval; with
    # nothing to choose at all (eps' undefined), the half of eps of Lines 3-11
    unspent = eps_p * (h - line9_iterations) if denom > 0 else eps / 2.0
    ledger = Ledger(entries).check(eps)
    return _build_release(prep, cut_nodes, cells, counts, history=tuple(history), ledger=ledger,
                          eps=eps, eps_prime=eps_p, h=h, utility=utility, method="diffgen",
                          eps_unspent=unspent, domain_cells=n_groups * K, labels=labels)




def noisy_counts(group_codes: ArrayLike, class_codes: ArrayLike, *, n_groups: int, n_classes: int, eps: float,
                 rng: int | np.random.Generator, dense_cells: int = DENSE_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Line 12 of Algorithm 1: a noisy count for every cell of the generalized domain.

    Every cell (group x class) gets its count plus exact discrete Laplace noise
    (:func:`privlib.mechanisms.discrete_laplace`: P(Z = z) proportional to exp(-eps * abs(z)),
    integer arithmetic only, the integer counterpart of Lap(1/eps)), clipped at 0 -- empty
    cells included (Line 12 spends eps/2 of DiffGen's budget, so :func:`diffgen` calls this
    with ``eps / 2``).  Up to ``dense_cells`` cells every cell is drawn exactly; above, the
    empty cells are handled sparsely: the number of them whose noise is at least 1 is drawn
    from its binomial law (numpy's floating-point binomial sampler, ``p`` computed in floating
    point: the one draw that is not exact), their counts from the noise's law conditioned on
    >= 1, their positions uniformly (both exact).

    Parameters
    ----------
    group_codes, class_codes : array_like of int
        Per record: its group (``0 .. n_groups - 1``) and class (``0 .. n_classes - 1``).
    n_groups, n_classes : int
        The size of the generalized domain (``n_groups x n_classes`` cells).
    eps : float
        The budget of this step (discrete Laplace noise; sensitivity 1, disjoint cells).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    dense_cells : int, default :data:`DENSE_CELLS`
        Largest domain drawn cell by cell.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The flat cell indices ``group * n_classes + class`` released with a positive count
        (sorted), and those counts.

    Raises
    ------
    ValueError, TypeError
        A bad argument (the message names it), or too many released rows.

    Examples
    --------
    >>> cells, counts = noisy_counts([0, 0, 1], [0, 1, 1], n_groups=2, n_classes=2, eps=1e9, rng=0)
    >>> cells.tolist(), counts.tolist()
    ([0, 1, 3], [1, 1, 1])
    """
    eps = check_epsilon(eps)
    n_groups = check_int(n_groups, "n_groups", minimum=1)
    n_classes = check_int(n_classes, "n_classes", minimum=1)
    dense_cells = check_int(dense_cells, "dense_cells", minimum=0)
    gen = as_generator(rng, release=True)
    key = np.asarray(group_codes, dtype=np.int64).ravel()
    y = np.asarray(class_codes, dtype=np.int64).ravel()
    if len(key) != len(y):
        raise ValueError(f"class_codes: expected one class per record ({len(key)}), got {len(y)}")
    if len(key) and (key.min() < 0 or key.max() >= n_groups):
        raise ValueError(f"group_codes: expected codes in [0, {n_groups}), got {key.min()} to {key.max()}")
    if len(y) and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"class_codes: expected codes in [0, {n_classes}), got {y.min()} to {y.max()}")
    return _noisy_counts(key, y, n_classes, n_groups, eps, gen, dense_cells)
