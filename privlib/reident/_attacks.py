"""Re-identification attacks (private): the level-l success rate of ranking every
candidate user (Section III-B, V-C, Figure 3) and the steps of its curve."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import (
    as_generator,
    check_columns,
    check_int,
    check_no_nan,
    check_nonempty,
    check_unique_columns,
)
from ._codes import _pair_keys
from ._folds import _fold_tests, _folds, _shuffle_within
from ._information import _pairs
from ._records import LEVELS_CV_DOC, OBS_MODEL_DOC, Model, Records, _records


def _check_levels(levels: object, name: str, maximum: int | None) -> np.ndarray:
    lv = np.atleast_1d(np.asarray(levels))
    if lv.size == 0:
        raise ValueError(f"{name}: expected at least one level, got none")
    out = np.array([check_int(x, name, minimum=1) for x in lv.tolist()], dtype=np.int64)
    return out


def _ranks(better: np.ndarray, ties: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Rank of the correct candidate: 1 + #strictly better + a uniform share of the ties."""
    return 1 + better + np.floor(gen.random(len(ties)) * (ties + 1)).astype(np.int64)


#: The Returns section of the success rates of re-identification.
SUCCESS_RETURNS_DOC = """
Returns
-------
DataFrame
    Columns ``level``, ``success`` and ``random`` (``l / n_u``, a blind guess).
"""


@shared_doc(obs_model=OBS_MODEL_DOC, levels_cv=LEVELS_CV_DOC, success_returns=SUCCESS_RETURNS_DOC)
def success_rate(obs: pd.DataFrame | Records, *, model: Model | None = None, leakages: int,
                 levels: int | Sequence[int] | np.ndarray, rng: int | np.random.Generator, folds: int = 10,
                 user: Hashable = "user", characteristics: Sequence[Hashable] | None = None,
                 n_obs: int | None = None, chunk: int = 512) -> pd.DataFrame:
    """Level-l success rate of re-identification with ``M_o = leakages`` external leakages.

    Section III-B: "a level-l success corresponds to a case where the user to
    re-identify is among the first l candidates suggested by the attack".  For each fold
    ``k`` and each user ``u_i``, ``M_o`` observations are drawn (without replacement) from
    the user's held-out fold -- fresh observations, not in the training data -- and every
    candidate ``u_j`` is scored by the likelihood ``prod_m g^^(k)(o_m|u_j)`` of the
    training-fold model (Bayes with a uniform prior).  Candidates with a zero likelihood
    are ordered by their number of zero-probability leakages, then by the product of the
    non-zero ones; exact ties are broken at random.  The success rate is the share of
    (user, fold) attacks whose correct user has rank ``<= l``.  ``rng`` (required,
    keyword-only; int seed or Generator) draws the folds, the leakages and the tie breaks.

    With ``M_o = 1`` (the source's Figure 3) every candidate is still ranked, but by
    counting: a candidate's score is its probability of the leaked bin, so the correct
    user's rank is the number of training pairs of that bin with a higher probability
    (``_rank_one_leakage``; linear in the pairs, no users x users matrix), which
    ranks all 13,141 users of the source in seconds.  With ``M_o > 1`` the scores are
    sums over the leakages and are computed by sparse products, ``chunk`` attacks at a
    time (memory ``chunk x n_u``).  Levels are counted from the cumulative distribution
    of the ranks, so ``levels = 1..n_u`` costs no more than one level.

    Parameters
    ----------
    {{obs_model}}
    leakages : int
        ``M_o``, the leakages per attack (at most the smallest held-out fold).
    {{levels_cv}}
    user, characteristics, n_obs : as in :func:`encode_records` (tables only).
    chunk : int, default 512
        Attacks scored at a time when ``M_o > 1``.

    {{success_returns}}

    Raises
    ------
    ValueError
        As :func:`perceived_information`; ``leakages`` larger than a held-out fold, levels
        below 1.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import exhaustive, success_rate
    >>> obs = pd.DataFrame({"user": np.repeat([1, 2, 3], 10), "x": list("aaaaaaaaab" "bbbbbbbbbc" "cccccccccc")})
    >>> success_rate(obs, model=exhaustive(), leakages=1, levels=[1, 3], rng=0, folds=5).round(3)
       level  success  random
    0      1    0.867   0.333
    1      3    1.000   1.000
    """
    rec = _records(obs, model, user, characteristics, n_obs)
    gen = as_generator(rng)
    chunk = check_int(chunk, "chunk", minimum=1)
    m = check_int(leakages, "leakages", minimum=1)
    lv = _check_levels(levels, "levels", rec.n_users)
    fold = _folds(rec, folds, gen)
    k = int(folds)
    # key user * k + fold: k <= min N_o (checked by _folds), so n_u * k <= records, far below int64
    min_test = int(np.bincount(rec.user.astype(np.int64) * k + fold, minlength=rec.n_users * k).min())
    if m > min_test:
        raise ValueError(
            f"leakages: expected at most {min_test} (the smallest held-out fold of a user), got {m}")
    pid, pu, ps, pc = _pairs(rec)
    n_u, S = rec.n_users, rec.n_symbols
    ranks = []
    for test in _fold_tests(fold, k):                        # fold j's records, in record order
        ct = np.bincount(pid[test], minlength=len(pc))
        n_train = rec.counts - np.bincount(pu, weights=ct, minlength=n_u)
        g = (pc - ct) / np.maximum(n_train, 1)[pu]           # training-fold model g^^(j), per pair
        # draw M_o leakages per user from its test fold: random order within user, first M_o
        tu = rec.user[test]
        tcount = np.bincount(tu, minlength=n_u)
        starts = np.concatenate([[0], np.cumsum(tcount)[:-1]])
        if m == 1:  # one uniform held-out record per user (test records are grouped by user)
            chosen = test[starts + np.floor(gen.random(n_u) * tcount).astype(np.int64)]
            better, ties = _rank_one_leakage(pc - ct, n_train, pu, ps, pid[chosen], rec.symbol[chosen], n_u, S)
            ranks.append(_ranks(better, ties, gen))
            continue
        from scipy import sparse  # imported where used: lean import of privlib.reident

        shuffled = _shuffle_within(tu, gen)
        rnk = np.arange(len(shuffled)) - starts[tu[shuffled]]
        chosen = test[shuffled[rnk < m]]
        pos = g > 0
        G_log = sparse.csr_matrix((np.log(g[pos]), (pu[pos], ps[pos])), shape=(n_u, S))
        G_one = sparse.csr_matrix((np.ones(int(pos.sum())), (pu[pos], ps[pos])), shape=(n_u, S))
        L = sparse.csr_matrix((np.ones(len(chosen)), (rec.user[chosen], rec.symbol[chosen])), shape=(n_u, S))
        for a in range(0, n_u, chunk):
            b = min(a + chunk, n_u)
            Lc = L[a:b]
            hits = (Lc @ G_one.T).toarray()       # leakages with non-zero probability, per candidate
            logs = (Lc @ G_log.T).toarray()       # sum of their log-probabilities
            idx = np.arange(b - a)
            own_h, own_l = hits[idx, a + idx][:, None], logs[idx, a + idx][:, None]
            close = np.isclose(logs, own_l, rtol=1e-12, atol=1e-9)
            better = (hits > own_h) | ((hits == own_h) & (logs > own_l) & ~close)
            tie = (hits == own_h) & close
            ranks.append(_ranks(better.sum(axis=1), tie.sum(axis=1) - 1, gen))
    ranks = np.concatenate(ranks)
    return pd.DataFrame({"level": lv, "success": _count_within(ranks, lv) / len(ranks), "random": np.minimum(lv / n_u, 1.0)})


#: Largest users x bins model scored with dense products in :func:`fresh_success_rate`.
_DENSE_CELLS = 50_000_000


@shared_doc(success_returns=SUCCESS_RETURNS_DOC)
def fresh_success_rate(records: Records, *, n_train: int, leakages: int,
                       levels: int | Sequence[int] | np.ndarray, rng: int | np.random.Generator,
                       chunk: int = 512, smoothing: float = 0.0,
                       dense: bool | None = None) -> pd.DataFrame:
    """Level-l success rate of re-identification with fresh external leakages.

    Section V-A: "given the amount of collected observations, ``c * 13.68 / 0.19`` leakages
    are already sufficient" -- an attack with a model estimated from the whole database and
    ``M_o`` *fresh* observations of the target, more than a cross-validation fold holds.
    Every user's first ``n_train`` records (in the order of the table) are the database;
    the next ``leakages`` records are the user's fresh observations (external leakages,
    Section III-A), never used to estimate any model.  Each user is attacked once: every
    candidate ``u_j`` is scored by the likelihood ``prod_m g~(o_m|u_j)`` of its database
    histogram, and candidates are ranked as in :func:`success_rate` (first by the number of
    leakages with a non-zero probability, then by the product of those; exact ties broken
    at random with ``rng``, required and keyword-only).  Scores are computed ``chunk``
    attacks at a time (dense products when the users x bins model is small, sparse ones
    otherwise), never as one users x users matrix.

    Parameters
    ----------
    records : Records
        Every user with the same number of records, at least ``n_train + leakages``
        (:func:`encode_records` with ``n_obs=n_train + leakages``).
    n_train : int
        ``N_o``, the database records of each user.
    leakages : int
        ``M_o``, the fresh records of each user used as leakages.
    levels : int or sequence of int
        The levels ``l >= 1`` to report.
    rng : int or numpy.random.Generator
        Seed or generator for the tie breaks (required).
    chunk : int, default 512
        Attacks scored at a time.
    smoothing : float, default 0.0
        Pseudo-count added to every bin of every candidate's database histogram
        (``g~(o|u_j) = (count_j(o) + smoothing) / (n_train + smoothing * S)``, add-``smoothing``
        smoothing): with ``smoothing > 0`` no leakage has probability zero and candidates are
        ranked by the product alone.  0 (the default) is the rule above.  Needs the dense
        users x bins model.
    dense : bool, optional
        Score with dense users x bins arrays (True) or sparse products (False); by default
        dense when ``n_u * S <= 5e7``.  Both give the same ranks, draw for draw.

    {{success_returns}}

    Raises
    ------
    ValueError
        Users with unequal numbers of records, ``n_train + leakages`` above it, counts or
        levels below 1.
    TypeError
        ``records`` not :class:`Records`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import encode_records, exhaustive, fresh_success_rate
    >>> obs = pd.DataFrame({"user": np.repeat([1, 2, 3], 12),
    ...                     "x": list("aaaaaabbb" "aab" "bbbbbbccc" "bbc" "ccccccaaa" "cca")})
    >>> rec = encode_records(obs, model=exhaustive())   # 9 database + 3 fresh records each
    >>> fresh_success_rate(rec, n_train=9, leakages=3, levels=[1, 2], rng=0).round(3)
       level  success  random
    0      1      1.0   0.333
    1      2      1.0   0.667
    >>> fresh_success_rate(rec, n_train=9, leakages=3, levels=[1], rng=0, smoothing=0.5)["success"].round(3).tolist()
    [1.0]
    """
    if not isinstance(records, Records):
        raise TypeError(f"records: expected Records (encode_records), got {type(records).__name__}")
    if (isinstance(smoothing, bool) or not isinstance(smoothing, (int, float, np.integer, np.floating))
            or not np.isfinite(smoothing) or smoothing < 0):
        raise ValueError(f"smoothing: expected a finite pseudo-count >= 0, got {smoothing!r}")
    gen = as_generator(rng)
    chunk = check_int(chunk, "chunk", minimum=1)
    n_train = check_int(n_train, "n_train", minimum=1)
    m = check_int(leakages, "leakages", minimum=1)
    lv = _check_levels(levels, "levels", records.n_users)
    n_obs = records.n_obs
    if n_obs < 0:
        raise ValueError("records: expected every user with the same number of records "
                         "(encode_records with n_obs=n_train + leakages)")
    if n_train + m > n_obs:
        raise ValueError(f"leakages: expected n_train + leakages <= {n_obs} (the records of each user), "
                         f"got {n_train} + {m}")
    from scipy import sparse  # imported where used: lean import of privlib.reident

    n_u, S = records.n_users, records.n_symbols
    (u_train, s_train), (u_leak, s_leak) = _train_leak(records, n_train, m)
    if dense is None:
        dense = n_u * S <= _DENSE_CELLS
    elif not isinstance(dense, (bool, np.bool_)):
        raise TypeError(f"dense: expected True, False or None, got {dense!r}")
    elif dense and n_u * S > _DENSE_CELLS:
        raise ValueError(f"dense: the users x bins model has {n_u:,} x {S:,} cells, above {_DENSE_CELLS:,}")
    if smoothing and not dense:
        raise ValueError(f"smoothing: needs the dense users x bins model (n_u * S <= {_DENSE_CELLS:,}), "
                         f"got {n_u:,} x {S:,}")
    if dense:  # users x bins counts by one histogram each (n_u * S <= 5e7: the key fits int64)
        counts = np.bincount(u_train * S + s_train, minlength=n_u * S).reshape(n_u, S)
        L = np.bincount(u_leak * S + s_leak, minlength=n_u * S).reshape(n_u, S).astype(np.float64)
        if smoothing:  # every bin has probability > 0: rank by the product alone (same denominator)
            G_log = np.log(counts + float(smoothing)).T                          # S x n_u
            G_one = np.ones((S, n_u), dtype=np.float32)
        else:
            # g = count copies of 1/n_train added one by one: the same float as the sparse sum
            steps = np.cumsum(np.full(max(int(counts.max(initial=0)), 1), 1.0 / n_train))
            nz = counts > 0
            G_log = np.zeros((n_u, S))
            G_log[nz] = np.log(steps[counts[nz] - 1])
            G_log, G_one = G_log.T, nz.T.astype(np.float32)                      # S x n_u
        del counts
    else:
        G = sparse.csr_matrix((np.full(u_train.size, 1.0 / n_train), (u_train, s_train)), shape=(n_u, S))
        G.sum_duplicates()
        L = sparse.csr_matrix((np.ones(u_leak.size), (u_leak, s_leak)), shape=(n_u, S))
        L.sum_duplicates()
        G_log = G.copy()
        G_log.data = np.log(G_log.data)
        G_one = G.copy()
        G_one.data = np.ones_like(G_one.data)
        G_log, G_one = G_log.T.tocsc(), G_one.T.tocsc()
    with _one_blas_thread():
        ranks = _fresh_ranks(L, G_log, G_one, n_u, chunk, dense, smoothing, gen)
    return pd.DataFrame({"level": lv, "success": _count_within(ranks, lv) / len(ranks),
                         "random": np.minimum(lv / n_u, 1.0)})


def _one_blas_thread():
    """A context in which BLAS runs on one thread (``threadpoolctl``, installed with scikit-learn).

    Each product of :func:`fresh_success_rate` is a matrix of ``chunk x n_u`` dot products of
    length ``S``; OpenBLAS splits the rows and columns of the result between its threads, never
    a dot product, so every float is the same on one thread -- and the spare threads' waiting
    costs CPU time that the other computations of a busy machine need (measured: a quarter of
    the products' CPU time on two cores)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _fresh_ranks(L, G_log, G_one, n_u: int, chunk: int, dense: bool, smoothing: float,
                 gen: np.random.Generator) -> np.ndarray:
    """The correct user's rank in every attack of :func:`fresh_success_rate`, ``chunk`` attacks
    at a time (the tie breaks drawn from ``gen`` in the order of the users)."""
    ranks = []
    for a in range(0, n_u, chunk):   # counts of leakages with a non-zero probability: exact in float32
        b = min(a + chunk, n_u)
        Lc = L[a:b]
        idx = np.arange(b - a)
        d = Lc @ G_log if dense else (Lc @ G_log).toarray()   # sums of log-probabilities, then ...
        hits = None if smoothing else (Lc.astype(np.float32) @ G_one if dense else (Lc @ G_one).toarray())
        better, ties = np.empty(b - a, dtype=np.int64), np.empty(b - a, dtype=np.int64)
        for r in range(0, b - a, _ROWS):   # the comparisons a few rows at a time: arrays that stay in cache
            rows = slice(r, min(r + _ROWS, b - a))
            better[rows], ties[rows] = _compare(d[rows], None if hits is None else hits[rows], a + idx[rows])
        ranks.append(_ranks(better, ties - 1, gen))
    return np.concatenate(ranks)


#: Attacks compared at a time in :func:`_fresh_ranks` (rows x n_u floats that fit in the cache).
_ROWS = 32


def _compare(d: np.ndarray, hits: np.ndarray | None, own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidates ranked above, and level with, the correct user ``own[i]`` of each row (attack).

    ``d``: each candidate's sum of log-probabilities of the leakages (overwritten); ``hits``: its
    number of leakages with a non-zero probability (None: every leakage has one).  A candidate is
    above when it has more hits, or as many and a sum more than ``tol`` above; level when it has as
    many and a sum within ``tol`` (the correct user counted too).

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[-1.0, -0.5, -1.0, -3.0]])
    >>> _compare(d.copy(), None, np.array([0]))
    (array([1]), array([2]))
    >>> _compare(d.copy(), np.array([[2, 2, 1, 3]], dtype=np.float32), np.array([0]))
    (array([2]), array([1]))
    """
    idx = np.arange(len(own))
    own_l = d[idx, own][:, None]
    d -= own_l                                              # ... their difference to the correct user's
    # numpy.isclose(logs, own_l, rtol=1e-12, atol=1e-9) is |d| <= tol, and "logs > own_l and not
    # close" is d > tol: the same decisions as comparing the logs, with one array
    tol = 1e-9 + 1e-12 * np.abs(own_l)
    if hits is None:  # every candidate gives every leakage a non-zero probability: the same hits
        better = np.count_nonzero(d > tol, axis=1)
        ties = np.count_nonzero(np.abs(d, out=d) <= tol, axis=1)
    else:
        own_h = hits[idx, own][:, None]
        same = hits == own_h
        better = np.count_nonzero(hits > own_h, axis=1) + np.count_nonzero(same & (d > tol), axis=1)
        ties = np.count_nonzero(same & (np.abs(d, out=d) <= tol), axis=1)
    return better, ties


def _train_leak(records: Records, n_train: int, m: int) -> tuple:
    """``(user, symbol)`` int64 arrays of every user's first ``n_train`` records (the database)
    and of its next ``m`` records (the fresh leakages), in the order of the table.

    A user's records are contiguous; when every user has ``N_o`` of them the table is a
    users x ``N_o`` block and the two parts are column slices of it (no per-record position
    array), else the positions are counted from each user's first record.
    """
    n_u, n_obs = records.n_users, records.n_obs
    if n_obs >= 0 and len(records.user) == n_u * n_obs:
        U, Y = records.user.reshape(n_u, n_obs), records.symbol.reshape(n_u, n_obs)
        return tuple((U[:, a:b].astype(np.int64).ravel(), Y[:, a:b].astype(np.int64).ravel())
                     for a, b in ((0, n_train), (n_train, n_train + m)))
    user = records.user.astype(np.int64)
    start = np.flatnonzero(np.r_[True, user[1:] != user[:-1]])
    pos = np.arange(len(user)) - np.repeat(start, np.diff(np.r_[start, len(user)]))
    train, leak = pos < n_train, (pos >= n_train) & (pos < n_train + m)
    sym = records.symbol.astype(np.int64)
    return (user[train], sym[train]), (user[leak], sym[leak])


def _count_within(ranks: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Number of ``ranks`` that are ``<= l`` for every level ``l`` of ``lv``: one cumulative
    count over the ranks (no levels x attacks array)."""
    top = int(ranks.max()) if len(ranks) else 0
    cum = np.cumsum(np.bincount(ranks, minlength=top + 1))
    return cum[np.minimum(lv, top)]


def _rank_one_leakage(count: np.ndarray, n_train: np.ndarray, pu: np.ndarray, ps: np.ndarray, own_pair: np.ndarray,
                      sym: np.ndarray, n_u: int, S: int) -> tuple[np.ndarray, np.ndarray]:
    """Candidates ranked above, and tied with, the correct user for one leakage each.

    With ``M_o = 1`` the score of candidate ``u_j`` for a leakage ``o`` is ``g(o|u_j) =
    count_j(o) / n_train_j`` itself, so a candidate beats the correct user ``u_i``
    exactly when ``g(o|u_j) > g(o|u_i)``.  The candidates with a non-zero probability of
    ``o`` are the training pairs of symbol ``o``; each attack counts how many of them lie
    above and level with the correct user's probability, never forming a users x users
    matrix.  When every user has the same number of training records (equal ``N_o``) the
    probabilities are ordered as the integer counts, and the counting is one histogram
    over (symbol, count) with cumulative sums (linear time); otherwise the pairs are
    sorted by (symbol, probability) and each attack does two binary searches.  A correct
    user with ``g(o|u_i) = 0`` is behind every candidate with a non-zero probability and
    tied with all the others.  Probabilities are compared exactly.

    Examples
    --------
    Against the dense users x symbols comparison of every candidate, with equal and
    unequal training sizes (the histogram and the sorted-search paths):

    >>> import numpy as np
    >>> gen = np.random.default_rng(7)
    >>> n_u, S = 40, 6
    >>> pu, ps = np.nonzero(gen.random((n_u, S)) < 0.7)
    >>> count = gen.integers(0, 4, len(pu))
    >>> own = np.array([gen.choice(np.flatnonzero(pu == u)) for u in range(n_u) if (pu == u).any()])
    >>> for n_train in (np.full(n_u, 12), gen.integers(5, 15, n_u)):
    ...     G = np.zeros((n_u, S))
    ...     G[pu, ps] = count / n_train[pu]
    ...     col, mine = G[:, ps[own]].T, G[pu[own], ps[own]][:, None]
    ...     better, ties = _rank_one_leakage(count, n_train, pu, ps, own, ps[own], n_u, S)
    ...     print(np.array_equal(better, (col > mine).sum(axis=1)),
    ...           np.array_equal(ties, (col == mine).sum(axis=1) - 1))
    True True
    True True
    """
    pos = np.flatnonzero(count > 0)
    nnz = np.bincount(ps[pos], minlength=S)
    own_count = count[own_pair]
    has = own_count > 0
    cnt = count[pos].astype(np.int64)
    width = int(cnt.max(initial=0)) + 2
    if np.all(n_train == n_train[0]) and S * width <= 4 * len(pos) + (1 << 22):
        hist = np.bincount(ps[pos].astype(np.int64) * width + cnt, minlength=S * width).reshape(S, width)
        above = hist[:, ::-1].cumsum(axis=1)[:, ::-1]           # above[s, v]: entries of s with count >= v
        v = own_count.astype(np.int64)
        better = np.where(has, above[sym, np.minimum(v + 1, width - 1)], nnz[sym])
        level = hist[sym, v]
    else:
        g = count / np.maximum(n_train, 1)[pu]
        uniq, inv = np.unique(g[pos], return_inverse=True)     # exact order of the values
        inv = np.asarray(inv, dtype=np.int64).ravel()
        own_rank = np.searchsorted(uniq, g[own_pair])           # exact: own > 0 is one of the values
        keys, qkey = _pair_keys(len(uniq) + 1, (ps[pos], inv), (sym, np.where(has, own_rank, 0)))
        keys = np.sort(keys)
        right = np.searchsorted(keys, qkey, side="right")
        level = right - np.searchsorted(keys, qkey, side="left")
        better = np.where(has, np.cumsum(nnz)[sym] - right, nnz[sym])
    ties = np.where(has, level - 1, n_u - nnz[sym] - 1)
    return better.astype(np.int64), ties.astype(np.int64)



def largest_step(success: pd.DataFrame, *, bins: int = 20) -> float:
    """How "stepped" a success-rate curve is (Section V-C, Figure 3).

    ``success`` holds the curve at every level ``1..n_u`` (:func:`success_rate` with
    ``levels = 1..n_u``).  The levels are cut into ``bins`` equal ranges and the share of
    attacks whose correct user falls in each range is computed; a smooth (concave) curve
    has non-increasing shares, whereas groups of similar users would show as a later range
    holding more than the one before it -- a step.  Returns the largest such increase
    (0 when the shares never increase).

    Parameters
    ----------
    success : DataFrame
        Columns ``level`` and ``success`` (from :func:`success_rate`).
    bins : int, default 20
        Number of equal ranges of levels (at least 2).

    Returns
    -------
    float
        The largest increase of the share of attacks from one range to the next.

    Raises
    ------
    ValueError
        ``success`` without ``level`` / ``success`` columns, empty, with NaN, levels < 1
        or success rates outside ``[0, 1]``; ``bins < 2``.
    TypeError
        ``success`` not a DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import largest_step
    >>> round(largest_step(pd.DataFrame({"level": [1, 2, 3, 4], "success": [0.1, 0.2, 0.6, 1.0]}), bins=4), 3)
    0.3
    """
    if not isinstance(success, pd.DataFrame):
        raise TypeError(f"success: expected the DataFrame of success_rate, got {type(success).__name__}")
    check_unique_columns(success, "success")
    check_columns(success, ["level", "success"], "success")
    check_nonempty(success, "success")
    check_no_nan(success, "success", ["level", "success"])
    bins = check_int(bins, "bins", minimum=2)
    if (success["level"] < 1).any() or not success["success"].between(0, 1).all():
        raise ValueError(f"success: expected levels >= 1 and success rates in [0, 1], got levels "
                         f"{success['level'].min()}..{success['level'].max()} and rates "
                         f"{success['success'].min()}..{success['success'].max()}")
    s = success.sort_values("level", kind="stable")
    lv, sr = s["level"].to_numpy(), s["success"].to_numpy()
    edges = np.linspace(0, lv.max(), bins + 1)
    at = np.interp(edges, np.concatenate([[0], lv]), np.concatenate([[0.0], sr]))
    share = np.diff(at)
    return float(max(0.0, np.max(np.diff(share))))


