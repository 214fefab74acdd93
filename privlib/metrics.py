"""Empirical privacy and empirical utility (Cormode et al. 2013, Section II).

* :func:`privacy_breach` -- Definition 1 and the breach increase
  ``beta = (1 - pi) / rho - 1``: ``pi`` the fraction of records whose SA value the attack
  gets wrong, ``rho`` the accuracy of always predicting the most frequent SA value.
* :func:`range_workload` -- the workload of Section III "Experiment Setup": COUNT(*)
  queries with a range on every quasi-identifier covering half of its domain and a
  non-zero true answer.
* :func:`median_relative_error` -- Definition 2: ``alpha = median_q |q(A(D)) - q(D)| / q(D)``,
  answering ``q(A(D))`` from the leaves under the uniformity assumption (each leaf
  contributes its count times the fraction of its box the query covers).

The module also holds the source's experimental setups (:func:`adult_setup`,
:func:`census_setup`) and a small sweep runner (:func:`evaluate`, :func:`sweep`) that
builds a decomposition, attacks every record and answers the workload, optionally on
two processes (results do not depend on the number of workers).
"""
from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._progress import check_progress, progress_bar
from ._validation import (as_generator, check_columns, check_in, check_int, check_nonempty, check_probability,
                          check_unique_columns)
from .partition import Decomposition, _domain, dp_kdtree, encode, mondrian, qi_codes

__all__ = [
    "Breach",
    "baseline_accuracy",
    "privacy_breach",
    "Workload",
    "range_workload",
    "QuerySample",
    "query_readings",
    "true_answers",
    "leaf_counts",
    "estimate_answers",
    "relative_errors",
    "median_relative_error",
    "Setup",
    "adult_setup",
    "census_setup",
    "industry_pay_class",
    "evaluate",
    "sweep",
    "build",
    "best_breach",
    "best_error",
    "dominated_by",
]


# ----------------------------------------------------------------------------- privacy
@dataclass(frozen=True)
class Breach:
    """Empirical privacy of one attack.

    ``accuracy = 1 - pi`` (Definition 1), ``rho`` the baseline accuracy, ``beta`` the
    breach increase ``(1 - pi) / rho - 1`` (0: no better than the baseline; 1: twice as
    many correct guesses).
    """

    accuracy: float
    privacy: float
    rho: float
    beta: float


def baseline_accuracy(actual) -> float:
    """``rho``: accuracy of always predicting the most frequent value of ``actual``."""
    actual = pd.Series(np.asarray(actual, dtype=object))
    if actual.empty:
        raise ValueError("actual: expected at least one sensitive value, got none")
    return float(actual.value_counts().iloc[0] / actual.size)


def privacy_breach(predicted, actual=None, rho: float | None = None) -> Breach:
    """Empirical privacy ``pi`` and breach increase ``beta = (1 - pi)/rho - 1`` (Section II).

    Parameters
    ----------
    predicted : array_like or privlib.attacks.Prediction
        The attack's predictions (a ``Prediction`` carries ``actual`` too).
    actual : array_like, optional
        True SA values, same length.
    rho : float, optional
        Baseline accuracy; default :func:`baseline_accuracy` of ``actual``.
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
    rho = baseline_accuracy(actual) if rho is None else float(rho)
    if not 0 < rho <= 1:
        raise ValueError(f"rho: expected a baseline accuracy in (0, 1], got {rho}")
    acc = float(np.mean(predicted == actual))
    return Breach(accuracy=acc, privacy=1.0 - acc, rho=rho, beta=acc / rho - 1.0)


# ----------------------------------------------------------------------------- workload
@dataclass(frozen=True, eq=False)
class Workload:
    """Range COUNT(*) queries over the quasi-identifiers (inclusive integer bounds).

    Attributes
    ----------
    qi : tuple of str
    lower, upper : ndarray (queries x d), int64
    answers : ndarray (queries,)
        True answers on the data the workload was drawn from (all > 0).
    n_records : int
        Size of that data (for the selectivity).
    """

    qi: tuple
    lower: np.ndarray
    upper: np.ndarray
    answers: np.ndarray
    n_records: int

    def __post_init__(self):
        if self.lower.shape[0] == 0:
            raise ValueError("workload: expected at least one query, got an empty workload")
        if self.lower.shape != self.upper.shape or self.lower.shape[1] != len(self.qi):
            raise ValueError(f"workload: bounds of shape {self.lower.shape} / {self.upper.shape} "
                             f"do not match {len(self.qi)} quasi-identifiers")
        if self.answers.shape != (self.lower.shape[0],):
            raise ValueError(f"workload: expected one true answer per query, got {self.answers.shape}")
        zero = np.flatnonzero(self.answers <= 0)
        if zero.size:
            raise ValueError(f"workload: query {int(zero[0])} has a zero true answer; the relative error "
                             "q(A(D)) - q(D) / q(D) is undefined (the source draws queries with non-zero answers)")

    @property
    def n_queries(self) -> int:
        return int(self.lower.shape[0])

    @property
    def selectivity(self) -> np.ndarray:
        """True answer / number of records, per query."""
        return self.answers / self.n_records

    def subset(self, idx) -> "Workload":
        return Workload(self.qi, self.lower[idx], self.upper[idx], self.answers[idx], self.n_records)


def _prefix_counts(X, lo, W):
    """d-dimensional inclusive prefix sums of the data histogram (padded with a zero layer)."""
    flat = np.ravel_multi_index(tuple((X - lo).T), tuple(W))
    hist = np.bincount(flat, minlength=int(np.prod(W))).reshape(tuple(W))
    P = np.zeros(tuple(w + 1 for w in W), dtype=np.int64)
    P[tuple(slice(1, None) for _ in W)] = hist
    for ax in range(len(W)):
        np.cumsum(P, axis=ax, out=P)
    return P


def true_answers(X: np.ndarray, lower: np.ndarray, upper: np.ndarray, domain_lower=None, domain_upper=None,
                 method: str = "auto") -> np.ndarray:
    """Exact COUNT(*) of each box query over the code matrix ``X`` (records x d).

    ``method="prefix"``: inclusion--exclusion over the ``2**d`` corners of a d-dimensional
    prefix-sum table (when the domain has at most 5e7 cells); ``"scan"``: a chunked
    vectorised scan of the records (the independent check).
    """
    check_in(method, "method", ("auto", "prefix", "scan"))
    lo = X.min(axis=0) if domain_lower is None else np.asarray(domain_lower)
    hi = X.max(axis=0) if domain_upper is None else np.asarray(domain_upper)
    W = (hi - lo + 1).astype(np.int64)
    d = X.shape[1]
    if method == "auto":
        method = "prefix" if np.prod(W.astype(float)) <= 5e7 else "scan"
    elif method == "prefix" and np.prod(W.astype(float)) > 5e7:
        raise ValueError(f"method: 'prefix' needs a prefix-sum table of the whole domain, here "
                         f"{np.prod(W.astype(float)):.3g} cells (more than 5e7); use 'scan' or 'auto'")
    if method == "prefix":
        P = _prefix_counts(X, lo, W)
        a = np.clip(lower - lo, 0, W)               # index of the cell before the range (padded)
        b = np.clip(upper - lo + 1, 0, W)
        return _corner_sum(P, a, b)
    out = np.zeros(lower.shape[0], dtype=np.int64)
    step = max(1, int(2e7 // max(X.shape[0] * d, 1)))
    for s in range(0, lower.shape[0], step):
        L, U = lower[s:s + step], upper[s:s + step]
        inside = ((X[None, :, :] >= L[:, None, :]) & (X[None, :, :] <= U[:, None, :])).all(axis=2)
        out[s:s + step] = inside.sum(axis=1)
    return out


def range_workload(df: pd.DataFrame, qi, n: int, *, rng, domain: dict | None = None,
                   max_rounds: int = 1000) -> Workload:
    """Draw ``n`` range COUNT(*) queries with a non-zero true answer (Section III).

    Each query has, on every QI ``j`` with domain ``[lo_j, hi_j]`` of ``W_j`` codes, a
    range of ``ceil(W_j / 2)`` consecutive codes (half of the domain) whose start is
    uniform over the positions that keep it inside the domain.  Queries with a zero true
    answer are redrawn.

    Parameters
    ----------
    df : pandas.DataFrame
    qi : list of str
        Ordered integer codes (see :func:`privlib.partition.qi_codes`).
    n : int
        Number of queries, >= 1 (the source: 2,000).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    domain : dict, optional
        ``{qi: (low, high)}`` integer codes; default the data's min and max (the workload is
        an evaluation tool, not a release, so no privacy warning; pass the same public
        domain as the release being evaluated so the two agree).
    max_rounds : int
        Rounds of redrawing queries with a zero answer before giving up (RuntimeError).
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    check_unique_columns(df, "df")
    qi = check_columns(df, qi, "qi")
    n = check_int(n, "n", minimum=1)
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    gen = as_generator(rng)
    X = qi_codes(df, qi)
    lo, hi = _domain(X, qi, domain)
    W = hi - lo + 1
    w = (W + 1) // 2
    lowers, uppers, answers = [], [], []
    have = 0
    for _ in range(max_rounds):
        m = max(2 * (n - have), 64)
        start = lo + np.floor(gen.random((m, lo.size)) * (W - w + 1)).astype(np.int64)
        L, U = start, start + w - 1
        ans = true_answers(X, L, U, lo, hi)
        ok = ans > 0
        lowers.append(L[ok])
        uppers.append(U[ok])
        answers.append(ans[ok])
        have += int(ok.sum())
        if have >= n:
            break
    else:
        raise RuntimeError(f"range_workload: found only {have} queries with a non-zero answer in {max_rounds} "
                           "rounds (max_rounds); the data may occupy a tiny corner of the domain")
    L = np.concatenate(lowers)[:n]
    U = np.concatenate(uppers)[:n]
    A = np.concatenate(answers)[:n]
    return Workload(tuple(qi), L, U, A, len(df))


#: Largest number of mask cells (queries x codes, summed over the QIs) :func:`query_readings` builds.
_MAX_MASK_CELLS = 2e9

QUERY_READINGS = ("half", "half_present", "half_inclusive", "centred", "around_record", "half_records")


@dataclass(frozen=True)
class QuerySample:
    """Queries drawn under one reading of "covers half of the domain of each attribute".

    Attributes
    ----------
    reading : str
    qi : tuple of str
    members : tuple of ndarray
        One boolean array (queries x W_j) per QI: which codes ``lo_j .. hi_j`` the query's
        condition on that QI accepts (an interval, or a value subset for ``subsets``).
    answers : ndarray (queries,)
        True COUNT(*) answers (all > 0).
    n_records : int
    lower, upper : ndarray (queries x d) or None
        The box bounds in the data's codes when every condition is an interval (no
        ``subsets``), else None.
    """

    reading: str
    qi: tuple
    members: tuple
    answers: np.ndarray
    n_records: int
    lower: np.ndarray | None = None
    upper: np.ndarray | None = None

    @property
    def selectivity(self) -> np.ndarray:
        return self.answers / self.n_records

    def to_workload(self) -> "Workload":
        """The queries as a :class:`Workload` (box queries only)."""
        if self.lower is None:
            raise ValueError(f"to_workload: the reading {self.reading!r} with value subsets has no box "
                             "bounds; only interval conditions make a Workload")
        return Workload(self.qi, self.lower, self.upper, self.answers, self.n_records)


def _reading_members(reading, Z, W, m, gen, subsets):
    """Accepted-code masks of ``m`` candidate queries (codes shifted to start at 0)."""
    n, d = Z.shape
    members, bounds = [], []
    anchor = Z[gen.integers(0, n, m)] if reading == "around_record" else None
    for j in range(d):
        Wj = int(W[j])
        codes = np.arange(Wj)[None, :]
        present = np.unique(Z[:, j])
        if subsets[j]:
            # a nominal QI: a uniformly random subset of half of the values present
            k = (present.size + 1) // 2
            pick = np.argsort(gen.random((m, present.size)), axis=1)[:, :k]  # sort: unique keys (continuous draws)
            M = np.zeros((m, Wj), dtype=bool)
            M[np.arange(m)[:, None], present[pick]] = True
            members.append(M)
            bounds.append(None)
            continue
        if reading == "half":
            w = (Wj + 1) // 2
            a = np.floor(gen.random(m) * (Wj - w + 1)).astype(np.int64)
            b = a + w - 1
        elif reading == "half_inclusive":
            w = Wj // 2 + 1                      # [a, a + floor(W/2)] with both ends included
            a = np.floor(gen.random(m) * (Wj - w + 1)).astype(np.int64)
            b = a + w - 1
        elif reading == "half_present":
            P = present.size
            w = (P + 1) // 2                      # half of the values that occur, by rank
            r = np.floor(gen.random(m) * (P - w + 1)).astype(np.int64)
            a, b = present[r], present[r + w - 1]
        elif reading == "centred":
            w = (Wj + 1) // 2                     # centre uniform over the domain, clipped at its ends
            c = np.floor(gen.random(m) * Wj).astype(np.int64)
            a = np.maximum(c - w // 2, 0)
            b = np.minimum(c - w // 2 + w - 1, Wj - 1)
        elif reading == "around_record":
            w = (Wj + 1) // 2                     # half-domain range holding a random record's code
            lo_s = np.maximum(anchor[:, j] - w + 1, 0)
            hi_s = np.minimum(anchor[:, j], Wj - w)
            a = lo_s + np.floor(gen.random(m) * (hi_s - lo_s + 1)).astype(np.int64)
            b = a + w - 1
        else:                                     # "half_records": half of the records along the QI
            cdf = np.cumsum(np.bincount(Z[:, j], minlength=Wj)) / n
            u = gen.random(m) * 0.5
            a = np.searchsorted(cdf, u, side="right")
            b = np.maximum(np.searchsorted(cdf, u + 0.5, side="left"), a)
        members.append((codes >= a[:, None]) & (codes <= b[:, None]))
        bounds.append((a, b))
    return members, bounds


def _member_answers(Z, members):
    """COUNT(*) of every query given per-QI accepted-code masks (a scan of the distinct QI
    rows, weighted by their counts) -- for conditions that are not all intervals."""
    W = np.array([M.shape[1] for M in members])
    flat, cnt = np.unique(np.ravel_multi_index(tuple(Z.T), tuple(W)), return_counts=True)
    U = np.column_stack(np.unravel_index(flat, tuple(W)))
    T = [np.ascontiguousarray(M.T) for M in members]           # codes x queries: row gathers are fast
    out = np.zeros(members[0].shape[0])
    step = max(1, int(2e6 // max(members[0].shape[0], 1)))     # ~2 MB of booleans (16 MB as float) a chunk
    for s in range(0, U.shape[0], step):
        rows = U[s:s + step]
        inside = T[0][rows[:, 0]]
        for j in range(1, len(T)):
            inside &= T[j][rows[:, j]]
        out += cnt[s:s + step].astype(np.float64) @ inside
    return np.rint(out).astype(np.int64)


def query_readings(df: pd.DataFrame, qi, n: int, *, rng, reading: str = "half", domain: dict | None = None,
                   subsets=(), max_rounds: int = 1000) -> QuerySample:
    """Draw ``n`` non-zero COUNT(*) queries under one reading of the source's workload.

    The source (Section III) draws "2,000 queries with non-zero true answers, each of which
    covers half of the domain of each attribute" and reports a median selectivity of about
    13% (Adult) and 8% (Census), without saying more.  The readings, per QI ``j`` with public
    domain ``[lo_j, hi_j]`` of ``W_j`` codes:

    * ``"half"`` -- ``ceil(W_j / 2)`` consecutive codes, start uniform inside the domain
      (the chapter's workload, :func:`range_workload`);
    * ``"half_present"`` -- the domain is the set of values that occur: half of them (by
      rank), endpoints at occurring values;
    * ``"half_inclusive"`` -- ``[a, a + floor(W_j / 2)]`` with both ends included, i.e.
      ``floor(W_j / 2) + 1`` codes (an off-by-one reading: a binary QI is then not
      restricted at all);
    * ``"centred"`` -- a half-width range centred on a uniform code, clipped at the domain's
      ends (so near the ends it covers less than half);
    * ``"around_record"`` -- a half-width range placed uniformly among the positions that
      contain the codes of a uniformly drawn record (non-zero by construction, and denser
      regions are queried more often);
    * ``"half_records"`` -- "half" measured in records: from the u-quantile to the
      (u + 1/2)-quantile of the QI, u uniform on [0, 1/2].

    ``subsets`` lists nominal QIs whose condition is instead a uniformly random subset of
    half of their occurring values (not an interval; such queries are not boxes and are
    used here only for their selectivity).  Queries with a zero answer are redrawn.

    ``rng`` (int or numpy Generator) is required and keyword-only; ``domain`` as in
    :func:`range_workload`.

    Returns
    -------
    QuerySample
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    check_unique_columns(df, "df")
    qi = check_columns(df, qi, "qi")
    n = check_int(n, "n", minimum=1)
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    check_in(reading, "reading", QUERY_READINGS)
    subsets = check_columns(df, list(subsets), "subsets") if len(subsets) else []
    extra = [c for c in subsets if c not in qi]
    if extra:
        raise ValueError(f"subsets: expected quasi-identifiers among {qi}, got {extra}")
    gen = as_generator(rng)
    X = qi_codes(df, qi)
    lo, hi = _domain(X, qi, domain)
    Z = X - lo
    W = hi - lo + 1
    cells = float(W.sum()) * (1.25 * n + 64)
    if cells > _MAX_MASK_CELLS:
        raise ValueError(f"domain: the query masks (queries x codes per QI) would hold {cells:.3g} cells, more than "
                         f"{_MAX_MASK_CELLS:.0e}; query_readings keeps every accepted code, so it needs QIs of at most "
                         f"a few million codes (got widths {W.tolist()}); use range_workload for wide QIs")
    is_subset = [c in subsets for c in qi]
    kept, boxes, answers, have = [], [], [], 0
    for _ in range(max_rounds):
        m = int(1.25 * (n - have)) + 64
        members, bounds = _reading_members(reading, Z, W, m, gen, is_subset)
        if any(is_subset):
            ans = _member_answers(Z, members)
        else:                                     # boxes: inclusion-exclusion on prefix sums
            L = np.column_stack([bd[0] for bd in bounds])
            U = np.column_stack([bd[1] for bd in bounds])
            ans = true_answers(Z, L, U, np.zeros_like(W), W - 1)
        ok = ans > 0
        if not any(is_subset):
            boxes.append((L[ok] + lo, U[ok] + lo))
        kept.append([M[ok] for M in members])
        answers.append(ans[ok])
        have += int(ok.sum())
        if have >= n:
            break
    else:
        raise RuntimeError(f"query_readings: found only {have} non-zero queries in {max_rounds} rounds (max_rounds)")
    members = tuple(np.concatenate([k[j] for k in kept])[:n] for j in range(len(qi)))
    lower = np.concatenate([b[0] for b in boxes])[:n] if boxes else None
    upper = np.concatenate([b[1] for b in boxes])[:n] if boxes else None
    return QuerySample(reading, tuple(qi), members, np.concatenate(answers)[:n], len(df), lower, upper)


# ----------------------------------------------------------------------------- utility
def _corner_sum(P, a, b):
    """Inclusion--exclusion over the 2**d corners of padded prefix sums ``P``: the sum of
    the cells ``a <= x < b`` (per row of ``a``, ``b``)."""
    d = a.shape[1]
    out = np.zeros(a.shape[0], dtype=P.dtype)
    for corner in range(1 << d):
        idx, sign = [], 1
        for j in range(d):
            if corner >> j & 1:
                idx.append(a[:, j])
                sign = -sign
            else:
                idx.append(b[:, j])
        out += sign * P[tuple(idx)]
    return out


def leaf_counts(decomposition: Decomposition, clip_negative: bool = False, match_total: bool = False) -> np.ndarray:
    """Leaf totals used to answer queries, with the optional post-processing of noisy counts.

    * default: the released counts as they are (negative noisy counts included), the row
      sums of the histograms -- unbiased;
    * ``clip_negative=True``: every negative *cell* of the histograms (leaf x SA value) is
      rounded up to 0 before summing, as the source does for its classifier (Section II,
      "rounding such counts up to zero (the most likely true value)"); the source does not
      say what it does for query answering.  Clipping biases every leaf total upwards
      (by about ``b/2`` per cell for Laplace scale ``b`` when the true count is 0);
    * ``match_total=True`` (with ``clip_negative``): the clipped totals are then rescaled so
      that they sum to the released noisy grand total (the sum of the unclipped counts,
      itself an unbiased estimate of n, floored at 0) -- a consistency step that is pure
      post-processing and spends no budget.

    For exact (syntactic) histograms all three give the same counts.
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if not isinstance(clip_negative, (bool, np.bool_)) or not isinstance(match_total, (bool, np.bool_)):
        raise TypeError(f"clip_negative, match_total: expected bools, got {clip_negative!r}, {match_total!r}")
    if match_total and not clip_negative:
        raise ValueError("match_total: rescaling to the noisy total needs clip_negative=True "
                         "(without clipping the counts already sum to it)")
    hist = np.asarray(decomposition.histograms, dtype=float)
    if not clip_negative:
        return hist.sum(axis=1)
    counts = np.clip(hist, 0.0, None).sum(axis=1)
    if match_total:
        total = max(float(hist.sum()), 0.0)
        s = counts.sum()
        counts = counts * (total / s) if s > 0 else np.full(counts.shape, total / max(counts.size, 1))
    return counts


def estimate_answers(decomposition: Decomposition, workload: Workload, method: str = "auto",
                     chunk_cells: int = 4_000_000, *, clip_negative: bool = False,
                     match_total: bool = False) -> np.ndarray:
    """Answer every query from the leaves under the uniformity assumption (Section III).

    ``q(A(D)) = sum_leaves count_leaf * prod_j |q_j intersect leaf_j| / |leaf_j|`` with integer
    interval lengths.  By default noisy (DP) counts are used as released, negative ones
    included (unbiased); ``clip_negative`` and ``match_total`` select the post-processed
    counts of :func:`leaf_counts` instead.  Two methods, equal up to float round-off:

    * ``"grid"``: spread each leaf's count uniformly over its cells (a d-dimensional
      difference array, 2**d corner updates per leaf, then cumulative sums), take prefix
      sums of that density and answer each query from the 2**d corners of its box --
      O(cells + (leaves + queries) 2**d);
    * ``"overlap"``: the (queries x leaves x d) overlap-fraction array, in chunks of
      queries -- the direct formula, and the independent check.

    ``"auto"`` picks the cheaper of the two (the grid only for at most 5e7 cells).
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if not isinstance(workload, Workload):
        raise TypeError(f"workload: expected a privlib.metrics.Workload, got {type(workload).__name__}")
    check_in(method, "method", ("auto", "grid", "overlap"))
    if tuple(workload.qi) != tuple(decomposition.qi):
        raise ValueError(f"workload: its quasi-identifiers {list(workload.qi)} differ from the "
                         f"decomposition's {list(decomposition.qi)}")
    lo, hi = decomposition.lower, decomposition.upper
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    W = (dhi - dlo + 1).astype(np.int64)
    counts = leaf_counts(decomposition, clip_negative, match_total)
    L, d = lo.shape
    if method == "auto":
        cells = np.prod(W.astype(float) + 1)
        # measured on one core: ~18 ns per cell and QI for the grid, ~20 ns per query x leaf x QI
        cost_grid = 18 * d * cells + 50 * (L + workload.n_queries) * 2 ** d
        cost_overlap = 20.0 * workload.n_queries * L * d
        method = "grid" if cells <= 5e7 and cost_grid < cost_overlap else "overlap"
    if method == "grid":
        QL = np.clip(workload.lower - dlo, 0, W)
        QU = np.clip(workload.upper - dlo + 1, 0, W)
        dens = counts / np.prod(decomposition.widths.astype(float), axis=1)
        G = np.zeros(tuple(W + 1))
        a, b = lo - dlo, hi - dlo + 1
        for corner in range(1 << d):
            idx, sign = [], 1.0
            for j in range(d):
                if corner >> j & 1:
                    idx.append(b[:, j])
                    sign = -sign
                else:
                    idx.append(a[:, j])
            np.add.at(G, tuple(idx), sign * dens)
        for ax in range(d):                       # density per cell
            np.cumsum(G, axis=ax, out=G)
        P = np.zeros(tuple(W + 1))
        P[tuple(slice(1, None) for _ in range(d))] = G[tuple(slice(0, -1) for _ in range(d))]
        for ax in range(d):                       # prefix sums of the density
            np.cumsum(P, axis=ax, out=P)
        return _corner_sum(P, QL, QU)
    q = workload.n_queries
    step = max(1, chunk_cells // max(L, 1))
    out = np.empty(q)
    c64 = counts.astype(np.float64)
    for s in range(0, q, step):
        out[s:s + step] = _overlap_fractions(decomposition, workload, s, s + step).astype(np.float64) @ c64
    return out


def _overlap_fractions(decomposition: Decomposition, workload: Workload, start: int = 0, stop: int | None = None):
    """(queries x leaves) float32 array: the share of each leaf's box that each query covers,
    ``prod_j |q_j intersect leaf_j| / |leaf_j|`` (for queries ``start:stop``)."""
    QL, QU = workload.lower[start:stop], workload.upper[start:stop]
    lo, hi = decomposition.lower, decomposition.upper
    # int32 arithmetic when every bound fits (fast), else int64 (codes in ms or ns)
    small = max(np.abs(lo).max(initial=0), np.abs(hi).max(initial=0), np.abs(QL).max(initial=0),
                np.abs(QU).max(initial=0)) < 2 ** 30
    it = np.int32 if small else np.int64
    lo, hi, QL, QU = lo.astype(it), hi.astype(it), QL.astype(it), QU.astype(it)
    inv_w = (1.0 / decomposition.widths).astype(np.float32)
    frac = None
    for j in range(lo.shape[1]):
        ov = np.minimum(QU[:, j, None], hi[None, :, j])
        ov -= np.maximum(QL[:, j, None], lo[None, :, j])
        ov += 1
        np.maximum(ov, 0, out=ov)
        f = ov.astype(np.float32)
        f *= inv_w[None, :, j]
        frac = f if frac is None else np.multiply(frac, f, out=frac)
    return frac


def relative_errors(decomposition: Decomposition, workload: Workload, *, clip_negative: bool = False,
                    match_total: bool = False) -> np.ndarray:
    """``rel(q) = |q(A(D)) - q(D)| / q(D)`` for every query (Definition 2); the keywords
    choose the noisy-count post-processing (:func:`leaf_counts`; default: none)."""
    est = estimate_answers(decomposition, workload, clip_negative=clip_negative, match_total=match_total)
    return np.abs(est - workload.answers) / workload.answers


def median_relative_error(decomposition: Decomposition, workload: Workload, *, clip_negative: bool = False,
                          match_total: bool = False) -> float:
    """``alpha(A(D))``: the median relative error over the workload (Definition 2); the keywords
    choose the noisy-count post-processing (:func:`leaf_counts`; default: none)."""
    return float(np.median(relative_errors(decomposition, workload, clip_negative=clip_negative,
                                           match_total=match_total)))


# ----------------------------------------------------------------------------- setups
ADULT_QI = ("workclass", "education", "sex", "hours_per_week", "income")
ADULT_SA = "occupation"
CENSUS_QI = ("age", "state", "education", "occupation")
CENSUS_SA = "salary_class"

CENSUS_EDUCATION = (
    "Children", "Less than 1st grade", "1st 2nd 3rd or 4th grade", "5th or 6th grade", "7th and 8th grade",
    "9th grade", "10th grade", "11th grade", "12th grade no diploma", "High school graduate",
    "Some college but no degree", "Associates degree-occup /vocational", "Associates degree-academic program",
    "Bachelors degree(BA AB BS)", "Masters degree(MA MS MEng MEd MSW MBA)",
    "Prof school degree (MD DDS DVM LLB JD)", "Doctorate degree(PhD EdD)",
)
N_SALARY_CLASSES = 10


@dataclass(frozen=True, eq=False)
class Setup:
    """One experimental setup: coded data, QIs, SA, public domains and the orders used."""

    name: str
    df: pd.DataFrame
    qi: tuple
    sa: str
    domain: dict
    orders: dict = field(default_factory=dict)
    distance: str = "equal"
    #: the public set of sensitive values (histogram columns); None: the values present
    sa_values: tuple | None = None

    @property
    def n(self) -> int:
        return len(self.df)

    def sample(self, fraction: float, *, rng) -> "Setup":
        """A simple random sample of ``round(fraction * n)`` records (same domains), for Figure 6(b).

        ``fraction`` in (0, 1]; ``rng`` (int or numpy Generator) required, keyword-only.
        """
        fraction = check_probability(fraction, "fraction", low_open=True)
        gen = as_generator(rng)
        m = int(round(fraction * self.n))
        if m < 1:
            raise ValueError(f"fraction: {fraction!r} of {self.n} records rounds to an empty sample")
        idx = np.sort(gen.choice(self.n, size=m, replace=False))   # sort: distinct indices
        return Setup(self.name, self.df.iloc[idx].reset_index(drop=True), self.qi, self.sa, self.domain,
                     self.orders, self.distance, self.sa_values)


def adult_setup(df: pd.DataFrame | None = None) -> Setup:
    """Adult (train, 30,162 complete records): QIs workclass, education, sex, hours per week,
    income; SA occupation (Section III).

    Orders of the categorical QIs: workclass and sex in the leaf order of the Adult
    hierarchies (``privlib.data.load_hierarchy``: Private, Self-emp-not-inc, Self-emp-inc,
    Federal-gov, State-gov, Local-gov, Without-pay, Never-worked; Female, Male); education
    by ``education_num`` (Preschool ... Doctorate); income ``<=50K`` < ``>50K``.  Public domains:
    the code ranges of these orders (the values listed in ``adult.names``), hours per week 1..99
    (the range of the CPS question on usual weekly hours, top-coded at 99).  Public SA values:
    the 14 occupations listed in ``adult.names`` (the occupation hierarchy's leaves), sorted.
    """
    from . import data
    if df is None:
        df = data.load_adult("train")
    edu = df.drop_duplicates("education").sort_values("education_num", kind="stable")["education"].tolist()
    full_edu = list(data.load_hierarchy("education").leaves)
    if sorted(edu) != sorted(full_edu) or [e for e in full_edu if e in edu] != edu:
        full_edu = edu  # pragma: no cover - the hierarchy's leaf order is the education_num order
    orders = {
        "workclass": list(data.load_hierarchy("workclass").leaves),
        "education": full_edu,
        "sex": list(data.load_hierarchy("sex").leaves),
        "income": ["<=50K", ">50K"],
    }
    coded = encode(df[list(ADULT_QI) + [ADULT_SA]], orders)
    domain = {c: (0, len(orders[c]) - 1) for c in orders}
    domain["hours_per_week"] = (1, 99)
    sa_values = tuple(sorted(data.load_hierarchy("occupation").leaves))
    return Setup("Adult", coded.reset_index(drop=True), ADULT_QI, ADULT_SA, domain, orders, "equal", sa_values)


def industry_pay_class(industry, income, n_classes: int = N_SALARY_CLASSES) -> np.ndarray:
    """An ordinal "salary class" from industry codes: the pay level of each record's industry.

    Industries are ranked by their share of incomes over 50,000 (ties: by code), then cut
    into ``n_classes`` groups of roughly equal numbers of records: a record's class is
    ``floor(n_classes * m)``, ``m`` the midpoint of its industry's slice of the cumulative
    record mass.  Class 0 holds the lowest-paid industries.
    """
    frame = pd.DataFrame({"ind": np.asarray(industry), "rich": np.asarray(income) == "50000+"})
    stats = frame.groupby("ind")["rich"].agg(["mean", "size"]).reset_index()
    stats = stats.sort_values(["mean", "ind"], kind="stable")
    mass = stats["size"].to_numpy() / len(frame)
    mid = np.cumsum(mass) - mass / 2
    cls = np.minimum(np.floor(mid * n_classes).astype(np.int64), n_classes - 1)
    lookup = dict(zip(stats["ind"].tolist(), cls.tolist()))
    return frame["ind"].map(lookup).to_numpy(np.int64)


def census_setup(df: pd.DataFrame | None = None) -> Setup:
    """The census substitute (UCI Census-Income KDD 1994-95; records with an occupation).

    The source's QIs are age, (insurance) state, education and occupation and its SA a
    salary class, from 100,000 records of the 2009 IPUMS USA ACS.  The substitute
    (``privlib.data.load_census``, 100,000 CPS records) has no current state of residence
    and no salary amount, so:

    * population: the 49,627 records with an occupation (``detailed_occupation_recode > 0``),
      as ``privlib.data.load_ipums`` keeps only records with an occupation -- the other
      half are children and people out of the labour force, who have no salary class;
    * ``state`` = ``state_of_previous_residence`` (51 values; "Not in universe" for the
      ~92% who did not move), ordered "Not in universe", "?", "Abroad", then the states
      alphabetically;
    * ``education`` ordered by attainment (Children ... Doctorate degree);
    * ``occupation`` = ``detailed_occupation_recode`` (codes 1..46);
    * ``salary_class`` = :func:`industry_pay_class` of ``detailed_industry_recode`` -- ten
      ordered classes of industries by their share of incomes over 50,000 (the file's only
      pay information besides a rarely filled hourly wage): a group-level stand-in for
      the individual salary class.

    Public domains: age 0..90 (the CPS top-codes age at 90), the code ranges of the state
    and education orders, occupation codes 1..46 (the detailed occupation recode runs 0..46,
    0 = not in universe, excluded); public SA values: the classes 0..9 by construction.
    """
    from . import data
    if df is None:
        df = data.load_census()
    df = df[df["detailed_occupation_recode"] > 0]
    states = sorted(set(df["state_of_previous_residence"]) - {"Not in universe", "?", "Abroad"})
    state_order = ["Not in universe", "?", "Abroad"] + states
    out = pd.DataFrame({
        "age": df["age"].astype("int64").to_numpy(),
        "state": df["state_of_previous_residence"].to_numpy(),
        "education": df["education"].to_numpy(),
        "occupation": df["detailed_occupation_recode"].astype("int64").to_numpy(),
        "salary_class": industry_pay_class(df["detailed_industry_recode"], df["income"]),
    })
    orders = {"state": state_order, "education": list(CENSUS_EDUCATION)}
    coded = encode(out, orders)
    domain = {"age": (0, 90), "state": (0, len(state_order) - 1), "education": (0, len(CENSUS_EDUCATION) - 1),
              "occupation": (1, 46)}
    return Setup("Census", coded.reset_index(drop=True), CENSUS_QI, CENSUS_SA, domain, orders, "ordered",
                 tuple(range(N_SALARY_CLASSES)))


# ----------------------------------------------------------------------------- sweeps
def build(setup: Setup, model: str, value, *, rng, **kw) -> Decomposition:
    """Build the decomposition of ``model`` ("k", "l", "t", "eps") with parameter ``value``.

    ``"k"``: Mondrian k-anonymity; ``"l"``: Mondrian ell-diversity (with k = 1 unless given);
    ``"t"``: Mondrian t-closeness on k = 8 (as the source), with the source's splitting rule
    (``t_rule="source"``: "nodes having EMD (compared to root) larger than the threshold t will
    not be split further", Section III; a leaf may then exceed t) unless ``t_rule="strict"``
    is given (every leaf within t, see :func:`privlib.partition.mondrian`); ``"eps"``: the DP kd-tree
    (``height`` keyword, default 8), drawn with ``rng`` (required, keyword-only; checked but
    unused by the deterministic Mondrian models).  The setup's public ``domain`` and
    ``sa_values`` are passed to the builder.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup: expected a privlib.metrics.Setup, got {type(setup).__name__}")
    check_in(model, "model", ("k", "l", "t", "eps"))
    gen = as_generator(rng)
    qi, sa = list(setup.qi), setup.sa
    common = dict(domain=setup.domain, sa_values=setup.sa_values)
    if model == "k":
        return mondrian(setup.df, qi, sa, value, max_height=kw.get("max_height"), **common)
    if model == "l":
        return mondrian(setup.df, qi, sa, kw.get("k", 1), l=value, l_kind=kw.get("l_kind", "distinct"),
                        max_height=kw.get("max_height"), **common)
    if model == "t":
        return mondrian(setup.df, qi, sa, kw.get("k", 8), t=value, distance=setup.distance,
                        t_rule=kw.get("t_rule", "source"), max_height=kw.get("max_height"), **common)
    return dp_kdtree(setup.df, qi, sa, value, kw.get("height", 8), rng=gen,
                     median_fraction=kw.get("median_fraction", 0.3), **common)


def evaluate(setup: Setup, workload: Workload, model: str, value, *, rng, **kw) -> dict:
    """Build, attack every record, answer the workload: one row of a figure.

    Returns a dict with ``model, value, seed, leaves, accuracy, rho, beta, alpha`` and the
    keywords; ``seed`` is ``rng`` when it is an int seed (None for a Generator).  The keyword
    ``second_classifier=True`` (not passed to :func:`build`) adds ``accuracy_majority`` and
    ``beta_majority``: the same for a second classifier, the leaf's most frequent SA value
    (:func:`privlib.attacks.leaf_majority`).  For ``model="t"``, also
    ``leaf_emd_max`` (the largest EMD of a leaf to the whole table) and ``share_above_t`` (the
    share of records in leaves farther than ``t``: 0 under the strict rule, possibly more under
    the source's).  ``rng``
    (int or numpy Generator) is required and keyword-only.  ``rho`` is the baseline accuracy on ``setup.df``.  The keyword
    ``alpha_variants=True`` (not passed to :func:`build`) adds ``alpha_clipped`` and
    ``alpha_clipped_total``: the median relative error from counts with negative cells
    rounded up to 0, and from those counts rescaled to the noisy total (:func:`leaf_counts`).
    """
    from .attacks import leaf_majority, naive_bayes
    variants = bool(kw.pop("alpha_variants", False))
    second = bool(kw.pop("second_classifier", False))
    seed = int(rng) if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    dec = build(setup, model, value, rng=rng, **kw)
    pred = naive_bayes(dec, setup.df)
    br = privacy_breach(pred)
    alpha = median_relative_error(dec, workload)
    row = dict(model=model, value=value, seed=seed, **kw, leaves=dec.n_leaves, depth=dec.height,
               accuracy=br.accuracy, rho=br.rho, beta=br.beta, alpha=alpha)
    if second:
        maj = privacy_breach(leaf_majority(dec, setup.df))
        row.update(accuracy_majority=maj.accuracy, beta_majority=maj.beta)
    if model == "t":
        from .closeness import emd_equal, emd_ordered
        emd = emd_ordered if dec.params["distance"] == "ordered" else emd_equal
        H = dec.histograms
        d = emd(H / np.maximum(dec.counts, 1)[:, None], H.sum(axis=0) / H.sum())
        row["leaf_emd_max"] = float(d.max())
        row["share_above_t"] = float(dec.counts[d > value + 1e-12].sum() / dec.counts.sum())
    if variants:
        # one overlap matrix for both post-processings (the "overlap" method of estimate_answers)
        frac = _overlap_fractions(dec, workload).astype(np.float64)
        for col, kw in (("alpha_clipped", {}), ("alpha_clipped_total", {"match_total": True})):
            est = frac @ leaf_counts(dec, clip_negative=True, **kw)
            row[col] = float(np.median(np.abs(est - workload.answers) / workload.answers))
    return row


_STATE = {}


def _init(setups, workloads):
    _STATE["setups"] = setups
    _STATE["workloads"] = workloads


def _run(task):
    key, model, value, seed, kw = task
    return evaluate(_STATE["setups"][key], _STATE["workloads"][key], model, value, rng=seed, **kw)


def sweep(setups: dict, workloads: dict, tasks, workers: int = 1, progress=False, desc: str = "sweep") -> pd.DataFrame:
    """Run many :func:`evaluate` calls; one row per task, in task order.

    Parameters
    ----------
    setups, workloads : dict
        ``{key: Setup}`` and ``{key: Workload}``.
    tasks : list of (key, model, value, seed, kwargs)
        ``seed``: the task's own rng (a required int seed: randomness is never a default;
        ``None`` is refused).
    workers : int
        1 runs in this process; more use a ``ProcessPoolExecutor`` (each task is seeded by
        its own ``seed``, so the rows do not depend on ``workers``).
    progress : bool or "text"
        ``True``: tqdm's live bar; ``"text"``: a reproducible text bar on stderr (for
        notebooks checked by nbval); ``False``: none.
    desc : str
        The bar's label.
    """
    workers = check_int(workers, "workers", minimum=1)
    check_progress(progress)
    tasks = [(k, m, v, s, dict(kw)) for k, m, v, s, kw in tasks]
    for t in tasks:
        if isinstance(t[3], bool) or not isinstance(t[3], (int, np.integer)) or t[3] < 0:
            raise TypeError(f"tasks: the seed of task {t[:4]!r} must be a non-negative int (the task's rng), "
                            f"got {type(t[3]).__name__} {t[3]!r}")
    missing = sorted({t[0] for t in tasks} - set(setups) | ({t[0] for t in tasks} - set(workloads)))
    if missing:
        raise ValueError(f"tasks: unknown setup key(s) {missing}")
    bar = progress_bar(len(tasks), str(desc), progress)
    rows = []
    if workers == 1 or len(tasks) <= 1:
        _init(setups, workloads)
        for t in tasks:
            rows.append(_run(t))
            bar.update()
    else:
        with cf.ProcessPoolExecutor(max_workers=workers, initializer=_init, initargs=(setups, workloads)) as ex:
            for r in ex.map(_run, tasks, chunksize=1):
                rows.append(r)
                bar.update()
    bar.close()
    frame = pd.DataFrame(rows)
    frame.insert(0, "data", [t[0] for t in tasks])
    return frame


# ----------------------------------------------------------------------------- comparing curves
def best_breach(points: pd.DataFrame, max_error: float, by: str = "model") -> pd.Series:
    """Per curve, the lowest breach increase ``beta`` among its points with ``alpha <= max_error``
    (NaN when the curve never gets that accurate) -- reading Figure 5 at a fixed utility."""
    check_columns(points, [by, "alpha", "beta"], "points")
    ok = points[points["alpha"] <= max_error]
    out = ok.groupby(by)["beta"].min()
    return out.reindex(pd.unique(points[by]))


def best_error(points: pd.DataFrame, max_breach: float, by: str = "model") -> pd.Series:
    """Per curve, the lowest relative error ``alpha`` among its points with ``beta <= max_breach``
    (NaN when the curve never gives that much privacy) -- reading Figure 5 at a fixed privacy."""
    check_columns(points, [by, "alpha", "beta"], "points")
    ok = points[points["beta"] <= max_breach]
    out = ok.groupby(by)["alpha"].min()
    return out.reindex(pd.unique(points[by]))


def dominated_by(alpha: float, beta: float, points: pd.DataFrame) -> bool:
    """True if some point of ``points`` has both lower-or-equal error and breach, one strictly."""
    a, b = points["alpha"].to_numpy(), points["beta"].to_numpy()
    return bool(np.any((a <= alpha) & (b <= beta) & ((a < alpha) | (b < beta))))
