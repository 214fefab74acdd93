"""Chapter 6 as a robustness study: anchors, attackers, frontiers with bootstrap intervals, rankings.

Private module of :mod:`privlib.experiments.one_scale` (which re-exports its public names).

* **Anchors** (:func:`anchor_release`): the unprotected data (every present QI cell with its
  exact occupation counts), the *SA-marginal* release (every QI cell's exact total, the
  occupation replaced by its overall distribution: QI and SA independent) and the *one-class*
  release (one box, the overall histogram).  Every family's frontier is read against them.
* **Attackers** (:func:`attack_measures`): the source's naive Bayes
  (:func:`privlib.attacks.naive_bayes`), the leaf majority (:func:`privlib.attacks.leaf_majority`),
  the Bayes decision on the release's implied joint distribution with the release's own
  occupation distribution as a Dirichlet prior of one record (``bayes-joint``), and a decision
  tree trained on records sampled from the release (``sample-tree``); beside the mean breach,
  the breach on the 10 % most confident guesses, the worst occupation and the tail over records
  of the posterior-to-prior odds ratio of the true value, and the linkage rate of published
  QI cells (a record alone in its cell, and the release says so).
* **Frontiers** (:func:`frontier`, :func:`frontier_difference`, :func:`bootstrap_difference`,
  :func:`bootstrap_bands`): the lower staircase hull of a family's points, its band from a
  percentile bootstrap over seeds and queries, and the mean difference of two frontiers over the
  band where both have points, with the same bootstrap.
* **Rankings** (:func:`rank_families`, :func:`kendall_matrix`): the family ranking in every
  (attacker, workload) cell and Kendall's tau between cells.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import as_generator, check_in, check_int
from ..metrics import Workload
from ..partition import Decomposition
from ._scale_releases import SETUP_EPS_RNG_DOC
from .empirical_privacy import Setup, _top_correct

__all__ = ["ANCHORS", "ATTACKERS", "HIERARCHICAL_BRANCHING", "anchor_release", "hierarchical_release",
           "attack_measures", "fraction_workload", "frontier", "frontier_difference", "bootstrap_difference",
           "bootstrap_bands", "rank_families", "kendall_matrix", "dp_odds_bound"]

#: The three anchors of the scale.
ANCHORS = ("unprotected", "sa-marginal", "one-class")
#: The attackers of the robustness table, in order (``naive-bayes`` is the source's).
ATTACKERS = ("naive-bayes", "leaf-majority", "bayes-joint", "sample-tree")
#: Share of the most confident guesses of the top-k-confidence breach.
TOP_SHARE = 0.10
#: Occupations held by fewer than this share of the records are left out of the per-occupation breach.
CLASS_MIN_SHARE = 0.01
#: Branching factor of the hierarchical histogram's tree.
HIERARCHICAL_BRANCHING = 16


@shared_doc(setup_eps_rng=SETUP_EPS_RNG_DOC)
def hierarchical_release(setup: Setup, eps: float, *, rng: int | np.random.Generator) -> Decomposition:
    """Hay et al. (2010)'s hierarchical histogram of every QI cell x SA count of the public domain.

    The counts are flattened in the mixed-radix order of the domain (the SA varying fastest), the
    leaves of a ``HIERARCHICAL_BRANCHING``-ary tree whose every node count carries exact
    discrete Laplace noise (:func:`privlib.hierarchical.hierarchical_histogram`); the consistent
    leaf counts after constrained inference are released.  eps-DP under add/remove.

    {{setup_eps_rng}}

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("aabb")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> dec = hierarchical_release(s, 1e6, rng=0)
    >>> dec.histograms.round(6).tolist(), dec.ledger.total()
    ([[2.0, 0.0], [0.0, 2.0]], 1000000.0)
    """
    from ..hierarchical import hierarchical_histogram
    from ._scale_cells import _cell_table, _histogram
    cells, counts = _cell_table(setup, full=True)
    res = hierarchical_histogram(counts.ravel(), eps=eps, branching=HIERARCHICAL_BRANCHING, rng=rng)
    return _histogram(setup, cells, res.counts.reshape(counts.shape), ledger=res.ledger,
                      params={"model": "hierarchical", "eps": eps, "levels": res.levels})


def anchor_release(setup: Setup, kind: str) -> Decomposition:
    """One anchor release of the scale (exact counts; no guarantee).

    ``"unprotected"``: every QI cell present in the data with its exact SA counts.
    ``"sa-marginal"``: every present QI cell with its exact total, its SA counts replaced by the
    total times the overall SA distribution (QI and SA independent: beta is 0 up to ties).
    ``"one-class"``: one box over the public domain with the overall SA histogram.

    Parameters
    ----------
    setup : Setup
    kind : {"unprotected", "sa-marginal", "one-class"}

    Returns
    -------
    privlib.partition.Decomposition

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("aabb")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> anchor_release(s, "sa-marginal").histograms.tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    >>> anchor_release(s, "one-class").n_leaves
    1
    """
    from .empirical_privacy import build
    from ._scale_cells import _cell_table, _histogram
    check_in(kind, "kind", ANCHORS)
    if kind == "one-class":
        return build(setup, "k", setup.n, rng=0)              # deterministic: a single leaf
    cells, counts = _cell_table(setup, full=False)
    if kind == "sa-marginal":
        p = counts.sum(axis=0) / counts.sum()
        counts = counts.sum(axis=1)[:, None] * p[None, :]
    return _histogram(setup, cells, counts, ledger=None, params={"model": kind})


def fraction_workload(setup: Setup, *, n: int, rng: int | np.random.Generator, fraction: float) -> Workload:
    """Definition-2 queries whose range covers ``ceil(fraction * W)`` codes of every attribute.

    As :func:`privlib.experiments.one_scale.definition2_workload` (which is ``fraction = 0.5``),
    with a wider or narrower range on every attribute, the SA (coded by position) included;
    queries with a zero answer are redrawn.

    Parameters
    ----------
    setup : Setup
    n : int
    rng : int or numpy.random.Generator
        Required, keyword-only.
    fraction : float
        In (0, 1].

    Returns
    -------
    privlib.metrics.Workload

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aabbccdd")}), ("x",), "s", {"x": (0, 7)},
    ...           sa_values=("a", "b", "c", "d"))
    >>> wl = fraction_workload(s, n=3, rng=0, fraction=0.75)
    >>> (wl.upper - wl.lower + 1)[0].tolist()
    [6, 3]
    """
    from ..metrics import true_answers
    n = check_int(n, "n", minimum=1)
    if not isinstance(fraction, (int, float)) or not 0 < fraction <= 1:
        raise ValueError(f"fraction: expected a number in (0, 1], got {fraction!r}")
    gen = as_generator(rng)
    attrs = list(setup.qi) + [setup.sa]
    X = setup.df[list(setup.qi)].to_numpy(np.int64)
    X = np.c_[X, pd.Index(setup.sa_values).get_indexer(setup.df[setup.sa])]
    lo = np.array([setup.domain[a][0] for a in setup.qi] + [0], dtype=np.int64)
    hi = np.array([setup.domain[a][1] for a in setup.qi] + [len(setup.sa_values) - 1], dtype=np.int64)
    W = hi - lo + 1
    w = np.maximum(np.ceil(fraction * W - 1e-9).astype(np.int64), 1)
    L_all, A_all, have = [], [], 0
    for _ in range(1000):
        m = max(2 * (n - have), 64)
        L = lo + np.floor(gen.random((m, lo.size)) * (W - w + 1)).astype(np.int64)
        ans = true_answers(X, L, L + w - 1, domain_lower=lo, domain_upper=hi)
        L_all.append(L[ans > 0])
        A_all.append(ans[ans > 0])
        have += int((ans > 0).sum())
        if have >= n:
            break
    else:  # pragma: no cover - the data fill the domain here
        raise RuntimeError("fraction_workload: too few queries with a non-zero answer")
    L = np.concatenate(L_all)[:n]
    return Workload(tuple(attrs), L, L + w - 1, np.concatenate(A_all)[:n], setup.n)


def _beta(correct: np.ndarray, rho: float) -> float:
    return float(np.mean(correct)) / rho - 1.0


def attack_measures(setup: Setup, decomposition: Decomposition, *, rng: int | np.random.Generator) -> dict:
    """Every attacker's raw breach, the worst-case variants and the linkage rate of one release.

    Parameters
    ----------
    setup : Setup
    decomposition : privlib.partition.Decomposition
    rng : int or numpy.random.Generator
        Required, keyword-only (the records sampled for ``sample-tree`` and its tree).

    Returns
    -------
    dict
        ``beta_<attacker>`` (raw: accuracy / rho - 1) for every attacker of :data:`ATTACKERS`
        but naive Bayes (:func:`measure` gives it); for naive Bayes ``beta_top`` (on the 10 %
        most confident guesses, against the same rho), ``beta_class_max`` (the largest
        per-occupation gain over occupations held by at least ``CLASS_MIN_SHARE`` of the
        records: mean belief in the true occupation over its share, minus 1) and
        ``log_odds_q99`` / ``log_odds_max`` (the 99th percentile and maximum over records of the
        log ratio of posterior to prior odds of the true occupation); ``linkage`` (share of
        records alone in their QI leaf whose released leaf total rounds to 1).

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("aabb")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> m = attack_measures(s, anchor_release(s, "unprotected"), rng=0)
    >>> m["beta_leaf-majority"], m["linkage"]
    (1.0, 0.0)
    """
    return _attack_measures(setup, decomposition, rng=rng)


def _attack_measures(setup: Setup, decomposition: Decomposition, *, rng: int | np.random.Generator,
                     prediction=None) -> dict:
    """:func:`attack_measures`; ``prediction``: ``naive_bayes(decomposition, setup.df)`` when the
    caller already has it (:func:`privlib.experiments.one_scale.sweep` attacks once per release and
    hands the same prediction to :func:`measure`; it draws nothing, so the stream is unchanged)."""
    from sklearn.tree import DecisionTreeClassifier

    from ..attacks import _leaf_beliefs, naive_bayes
    gen = as_generator(rng)
    df = setup.df
    sa_idx = pd.Index(setup.sa_values).get_indexer(df[setup.sa])
    S = len(setup.sa_values)
    prior = np.bincount(sa_idx, minlength=S) / setup.n
    rho = float(prior.max())
    X = df[list(setup.qi)].to_numpy(np.int64)
    leaf = decomposition.assign_codes(X)
    H = np.asarray(decomposition.histograms, dtype=float)
    Hc = np.clip(H, 0.0, None)
    out = {}
    nb = naive_bayes(decomposition, df) if prediction is None else prediction
    out["beta_top"] = _beta(_top_correct(nb, TOP_SHARE), rho)
    b_true = np.clip(nb.beliefs[np.arange(setup.n), sa_idx], 1e-12, 1 - 1e-12)
    p_true = prior[sa_idx]
    log_odds = np.log(b_true / (1 - b_true)) - np.log(p_true / (1 - p_true))
    out["log_odds_q99"] = float(np.quantile(log_odds, 0.99))
    out["log_odds_max"] = float(log_odds.max())
    gain = np.bincount(sa_idx, weights=b_true, minlength=S) / np.maximum(np.bincount(sa_idx, minlength=S), 1)
    common = prior >= CLASS_MIN_SHARE
    out["beta_class_max"] = float(np.max(gain[common] / prior[common]) - 1.0)
    # leaf_majority's guesses, read per leaf (the argmax of a leaf's beliefs is its records'), and
    # compared as positions in sa_values (the setup's SA values are among them)
    out["beta_leaf-majority"] = _beta(np.argmax(_leaf_beliefs(decomposition), axis=1)[leaf] == sa_idx, rho)
    # Bayes decision on the implied joint with a Dirichlet(release marginal) prior of one record
    marg = Hc.sum(axis=0)
    marg = marg / marg.sum() if marg.sum() > 0 else np.full(S, 1.0 / S)
    post = Hc + marg[None, :]
    guess = np.argmax(post[leaf], axis=1)
    out["beta_bayes-joint"] = _beta(guess == sa_idx, rho)
    # a classifier trained on records sampled from the release's implied joint
    w = Hc.sum(axis=1)
    if w.sum() > 0:
        n_s = setup.n
        li = gen.choice(w.size, size=n_s, p=w / w.sum())
        lo, width = decomposition.lower[li], decomposition.widths[li]
        Xs = lo + np.floor(gen.random(lo.shape) * width).astype(np.int64)
        cum = np.cumsum(Hc[li], axis=1)
        ys = (gen.random(n_s)[:, None] * cum[:, -1:] < cum).argmax(axis=1)
        tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=int(gen.integers(2 ** 31)))
        tree.fit(Xs, ys)
        out["beta_sample-tree"] = _beta(tree.predict(X) == sa_idx, rho)
    else:  # pragma: no cover - every DP release here has a positive clipped total
        out["beta_sample-tree"] = -1.0
    true_n = np.bincount(leaf, minlength=H.shape[0])
    released_n = np.rint(H.sum(axis=1))
    out["linkage"] = float(np.mean((true_n[leaf] == 1) & (released_n[leaf] == 1)))
    return out


def frontier(x: np.ndarray, y: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The lower staircase hull: at each level, the smallest ``y`` among points with ``x <= level``.

    Parameters
    ----------
    x, y : numpy.ndarray
        The points (e.g. beta and alpha of a family's parameter values).
    levels : numpy.ndarray

    Returns
    -------
    numpy.ndarray
        ``inf`` where no point has ``x <= level``.

    Examples
    --------
    >>> frontier(np.array([0.2, 1.0, 0.5]), np.array([3.0, 1.0, 2.0]), np.array([0.1, 0.6, 2.0])).tolist()
    [inf, 2.0, 1.0]
    """
    x, y, levels = np.asarray(x, float), np.asarray(y, float), np.asarray(levels, float)
    order = np.argsort(x, kind="stable")
    best = np.minimum.accumulate(y[order])
    idx = np.searchsorted(x[order], levels, side="right") - 1
    return np.where(idx >= 0, best[np.maximum(idx, 0)], np.inf)


def _band(xa, xb, cap, n_levels, log):
    lo = max(np.min(xa), np.min(xb))
    hi = min(np.max(xa), np.max(xb), cap)
    if hi <= lo:
        return np.array([lo])
    return np.geomspace(lo, hi, n_levels) if log else np.linspace(lo, hi, n_levels)


def frontier_difference(a: tuple, b: Sequence[tuple], *, cap: float = np.inf, n_levels: int = 25,
                        log_x: bool = False, log_y: bool = True) -> tuple[float, float, float]:
    """Mean difference of two frontiers over the band of ``x`` where both have points.

    ``a`` is one family's points ``(x, y)``; ``b`` one or more families' points, whose frontier
    is the pointwise smallest of theirs.  The band runs from the larger of the two smallest
    ``x`` to the smaller of the two largest (cut at ``cap``); an empty band is its lower end.

    Parameters
    ----------
    a : (x, y)
    b : sequence of (x, y)
    cap : float
        Upper end of the band at most this.
    n_levels : int
        Levels evenly spaced in the band (in log10 ``x`` if ``log_x``).
    log_x, log_y : bool
        Space the levels in log ``x``; compare log10 ``y``.

    Returns
    -------
    (float, float, float)
        The mean difference (``a`` minus ``b``) and the band's ends.

    Examples
    --------
    >>> a = (np.array([0.0, 1.0]), np.array([0.1, 0.01]))
    >>> b = [(np.array([0.5, 2.0]), np.array([1.0, 0.1]))]
    >>> [round(v, 6) for v in frontier_difference(a, b, n_levels=3)]
    [-1.333333, 0.5, 1.0]
    """
    xb = np.concatenate([np.asarray(p[0], float) for p in b])
    levels = _band(np.asarray(a[0], float), xb, cap, n_levels, log_x)
    fa = frontier(a[0], a[1], levels)
    fb = np.min([frontier(p[0], p[1], levels) for p in b], axis=0)
    if log_y:
        fa, fb = np.log10(np.maximum(fa, 1e-12)), np.log10(np.maximum(fb, 1e-12))
    return float(np.mean(fa - fb)), float(levels[0]), float(levels[-1])


def bootstrap_difference(rows: pd.DataFrame, a: str, b: Sequence[str], *, errors: str, x: str = "beta_raw",
                         swap: bool = False, cap: float = np.inf, queries: np.ndarray | None = None,
                         n_boot: int = 200, rng: int | np.random.Generator, n_levels: int = 25) -> dict:
    """A frontier difference and its percentile bootstrap interval over seeds and queries.

    Each replicate resamples the queries (one draw for every release) and the seed indices (one
    draw shared by every randomized family: common random numbers); a (family, value)'s point is
    the mean over the resampled seeds of ``x`` and of the median relative error over the resampled
    queries.  ``swap``: the frontier of ``x`` at matched error (levels in log error) instead of the
    error at matched ``x``.

    Parameters
    ----------
    rows : pandas.DataFrame
        Sweep rows with ``family, value, seed``, ``x`` and an ``errors`` column of per-query arrays.
    a : str
    b : sequence of str
    errors : str
        The column of per-query relative errors.
    x : str
    swap : bool
    cap : float
        As :func:`frontier_difference` (on ``x``; not with ``swap``).
    queries : numpy.ndarray, optional
        Indices of the queries used (default all).
    n_boot : int
    rng : int or numpy.random.Generator
        Required, keyword-only.
    n_levels : int

    Returns
    -------
    dict
        ``d`` (the estimate), ``lo``/``hi`` (2.5 and 97.5 percentiles), ``band_lo``/``band_hi``,
        and ``per_seed``: the difference on each seed alone (every query; the deterministic
        families' one row), a list in seed order (empty with a single seed).

    Examples
    --------
    >>> rows = pd.DataFrame({"family": ["a", "a", "b", "b"], "value": [1, 2, 1, 2], "seed": 0,
    ...                      "beta_raw": [0.0, 1.0, 0.0, 1.0],
    ...                      "e": [np.full(4, 0.1), np.full(4, 0.01), np.full(4, 1.0), np.full(4, 0.1)]})
    >>> r = bootstrap_difference(rows, "a", ["b"], errors="e", n_boot=20, rng=0)
    >>> round(r["d"], 6), round(r["lo"], 6), round(r["hi"], 6)
    (-1.0, -1.0, -1.0)
    """
    gen = as_generator(rng)
    points, Q, n_s = _point_sampler(rows, [a, *b], errors=errors, x=x, queries=queries)

    def one(qidx, sidx):
        P = points(qidx, sidx)
        if swap:
            P = {f: (y, xx) for f, (xx, y) in P.items()}
            keep = {f: np.asarray(P[f][0]) > 0 for f in P}
            P = {f: (P[f][0][keep[f]], P[f][1][keep[f]]) for f in P}
        return frontier_difference(P[a], [P[f] for f in b], cap=cap, n_levels=n_levels, log_x=swap,
                                   log_y=not swap)

    d, blo, bhi = one(np.arange(Q), np.arange(n_s))
    reps = [one(gen.integers(0, Q, Q), gen.integers(0, n_s, n_s))[0] for _ in range(int(n_boot))]
    lo, hi = np.percentile(reps, [2.5, 97.5])
    per_seed = [one(np.arange(Q), np.array([i]))[0] for i in range(n_s)] if n_s > 1 else []
    return {"d": d, "lo": float(lo), "hi": float(hi), "band_lo": blo, "band_hi": bhi, "per_seed": per_seed}


def _point_sampler(rows: pd.DataFrame, fams: Sequence[str], *, errors: str, x: str, queries) -> tuple:
    """A function ``(query indices, seed indices) -> {family: (x, median error)}`` over ``rows``.

    A (family, value)'s point is the mean over the drawn seeds (with multiplicity) of ``x`` and of
    the median relative error over the drawn queries; a deterministic family (one seed) keeps its
    one row.  Also returns the number of queries and of distinct seeds.
    """
    sub = rows[rows["family"].isin(list(fams))].reset_index(drop=True)
    E = np.vstack(sub[errors].to_numpy())
    if queries is not None:
        E = E[:, np.asarray(queries)]
    seeds = np.sort(sub["seed"].unique())
    n_s = seeds.size
    groups: dict = {}
    for i, k in enumerate(zip(sub["family"], sub["value"])):
        groups.setdefault(k, []).append(i)
    seed_pos = np.searchsorted(seeds, sub["seed"].to_numpy())
    xv = sub[x].to_numpy(float)
    median = _resampled_median(E)

    # the groups of one size stacked (deterministic families: one row; the others: one per seed), so
    # that a replicate averages each stack at once: a weighted mean per row, the sums of
    # np.average(values, weights=w) (a row of a C-contiguous array is summed as the 1-d array)
    keys = list(groups)
    stacks: dict = {}
    for g, k in enumerate(keys):
        stacks.setdefault(len(groups[k]), []).append(g)
    stacks = {size: (np.asarray(gs), np.asarray([groups[keys[g]] for g in gs], dtype=np.int64))
              for size, gs in stacks.items()}
    of_family: dict = {}
    for g, (f, _) in enumerate(keys):
        of_family.setdefault(f, []).append(g)

    def points(qidx, sidx):
        med = median(qidx)
        wseed = np.bincount(sidx, minlength=n_s).astype(float)
        px, py = np.empty(len(keys)), np.empty(len(keys))
        for size, (gs, idx) in stacks.items():
            if size == 1:                         # np.average of one value with weight 1: the value
                px[gs], py[gs] = xv[idx[:, 0]], med[idx[:, 0]]
                continue
            w = wseed[seed_pos[idx]]
            none = w.sum(axis=1) == 0
            if none.any():                        # pragma: no cover - a family with fewer seeds
                w[none] = 1.0
            scl = w.sum(axis=1)
            px[gs] = np.multiply(xv[idx], w).sum(axis=1) / scl
            py[gs] = np.multiply(med[idx], w).sum(axis=1) / scl
        return {f: (px[gs], py[gs]) for f, gs in of_family.items()}

    return points, E.shape[1], n_s


def _resampled_median(E: np.ndarray):
    """A function ``qidx -> np.median(E[:, qidx], axis=1)``, the same floats, faster for many draws.

    Each row is sorted once; a draw of column indices (with repetitions) is a count per column,
    and the order statistics ``(n - 1) // 2`` and ``n // 2`` of a row are read where the
    cumulative counts, in the row's sorted order, pass them; their mean is ``(a + b) / 2``, as
    ``np.median`` computes it.  Rows with a NaN keep ``np.median``.
    """
    if np.isnan(E).any():
        return lambda qidx: np.median(E[:, qidx], axis=1)
    order = np.argsort(E, axis=1, kind="stable")
    Es = np.take_along_axis(E, order, axis=1)
    rows = np.arange(E.shape[0])

    def median(qidx):
        qidx = np.asarray(qidx)
        n = qidx.size
        cw = np.cumsum(np.bincount(qidx, minlength=E.shape[1])[order], axis=1)
        a = Es[rows, np.count_nonzero(cw <= (n - 1) // 2, axis=1)]
        if n % 2:
            return a
        return (a + Es[rows, np.count_nonzero(cw <= n // 2, axis=1)]) / 2

    return median


def bootstrap_bands(rows: pd.DataFrame, families: Sequence[str], *, errors: str, levels: np.ndarray,
                    x: str = "beta_raw", queries: np.ndarray | None = None, n_boot: int = 200,
                    rng: int | np.random.Generator) -> pd.DataFrame:
    """Each family's frontier with a 95 % percentile bootstrap band over seeds and queries.

    The replicates are those of :func:`bootstrap_difference` (one draw of queries and one of seed
    indices per replicate, shared by every family): in each, every family's frontier
    (:func:`frontier`, the smallest median error among its points with ``x`` at most the level) is
    read at ``levels``; the band runs from the 2.5 to the 97.5 percentile over the replicates (the
    order statistics next outside them, without interpolation).  A level
    below a family's smallest ``x`` in a replicate gives ``inf`` there (no point that private).

    Parameters
    ----------
    rows : pandas.DataFrame
        Sweep rows with ``family, value, seed``, ``x`` and an ``errors`` column of per-query arrays.
    families : sequence of str
    errors : str
        The column of per-query relative errors.
    levels : numpy.ndarray
        The breach levels at which the frontiers are read.
    x : str
        The breach column.
    queries : numpy.ndarray, optional
        Indices of the queries used (default all).
    n_boot : int
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    pandas.DataFrame
        One row per (family, level): ``family, level, alpha`` (the frontier on all seeds and
        queries), ``lo``, ``hi``.

    Examples
    --------
    >>> rows = pd.DataFrame({"family": ["a", "a"], "value": [1, 2], "seed": 0, "beta_raw": [0.0, 1.0],
    ...                      "e": [np.full(4, 0.1), np.full(4, 0.01)]})
    >>> bootstrap_bands(rows, ["a"], errors="e", levels=np.array([0.5, 1.0]), n_boot=10, rng=0)[
    ...     ["level", "alpha", "lo", "hi"]].values.tolist()
    [[0.5, 0.1, 0.1, 0.1], [1.0, 0.01, 0.01, 0.01]]
    """
    gen = as_generator(rng)
    n_boot = check_int(n_boot, "n_boot", minimum=1)
    levels = np.asarray(levels, dtype=float)
    points, Q, n_s = _point_sampler(rows, families, errors=errors, x=x, queries=queries)
    missing = [f for f in families if f not in set(rows["family"])]
    if missing:
        raise ValueError(f"families: {missing!r} have no rows")

    def fronts(qidx, sidx):
        P = points(qidx, sidx)
        return np.array([frontier(*P[f], levels) for f in families])

    est = fronts(np.arange(Q), np.arange(n_s))
    reps = np.stack([fronts(gen.integers(0, Q, Q), gen.integers(0, n_s, n_s)) for _ in range(n_boot)])
    lo = np.percentile(reps, 2.5, axis=0, method="lower")          # no interpolation: inf stays inf
    hi = np.percentile(reps, 97.5, axis=0, method="higher")
    return pd.DataFrame({"family": np.repeat(list(families), levels.size), "level": np.tile(levels, len(families)),
                         "alpha": est.ravel(), "lo": lo.ravel(), "hi": hi.ravel()})


def rank_families(points: pd.DataFrame, families: Sequence[str], *, x: str, y: str, level: float) -> pd.Series:
    """Rank of each family by its frontier's ``y`` at ``x <= level`` (1 best; unreached last, tied).

    Parameters
    ----------
    points : pandas.DataFrame
        ``family`` and the columns ``x``, ``y``.
    families : sequence of str
    x, y : str
    level : float

    Returns
    -------
    pandas.Series
        Ranks (method "min") indexed by family.

    Examples
    --------
    >>> p = pd.DataFrame({"family": ["a", "b", "c"], "b": [0.1, 0.2, 5.0], "e": [0.3, 0.2, 0.1]})
    >>> rank_families(p, ["a", "b", "c"], x="b", y="e", level=1.0).tolist()
    [2.0, 1.0, 3.0]
    """
    score = {}
    for f in families:
        p = points[points["family"] == f]
        score[f] = float(frontier(p[x].to_numpy(), p[y].to_numpy(), np.array([level]))[0])
    s = pd.Series(score).replace(np.inf, 1e300)
    return s.rank(method="min")


def kendall_matrix(ranks: pd.DataFrame) -> pd.DataFrame:
    """Kendall's tau-b between every pair of columns of a rank table.

    Parameters
    ----------
    ranks : pandas.DataFrame
        Families x cells.

    Returns
    -------
    pandas.DataFrame
        Cells x cells.

    Examples
    --------
    >>> r = pd.DataFrame({"u": [1, 2, 3], "v": [1, 3, 2]})
    >>> kendall_matrix(r).round(4).values.tolist()
    [[1.0, 0.3333], [0.3333, 1.0]]
    """
    from scipy.stats import kendalltau
    cols = list(ranks.columns)
    M = np.ones((len(cols), len(cols)))
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            M[i, j] = M[j, i] = kendalltau(ranks[cols[i]], ranks[cols[j]]).statistic
    return pd.DataFrame(M, index=ranks.columns, columns=ranks.columns)


def dp_odds_bound(eps: float) -> float:
    """The largest log posterior-to-prior odds ratio an eps-DP (add/remove) release allows: 2 eps.

    Under add/remove one record, changing one record's occupation is a removal and an addition,
    so the release's likelihood ratio between two values of one record is at most ``e^{2 eps}``,
    and so is the ratio of the attacker's posterior to prior odds (Bayes' rule).

    Parameters
    ----------
    eps : float

    Returns
    -------
    float

    Examples
    --------
    >>> dp_odds_bound(0.5)
    1.0
    """
    return 2.0 * float(eps)
