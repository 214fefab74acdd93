"""The readings of the source's range-query workload compared in chapter 2.

Re-exported by :mod:`privlib.experiments.empirical_privacy` (:func:`query_readings`,
:class:`QuerySample`, :data:`QUERY_READINGS`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import as_generator, check_columns, check_in, check_int, check_nonempty, check_unique_columns
from ..metrics import Workload, true_answers
from ..partition import qi_codes, root_box


# ----------------------------------------------------------------------------- workload readings
#: Largest number of mask cells (queries x codes, summed over the QIs) :func:`query_readings` builds.
_MAX_MASK_CELLS = 2e9

#: The readings of the source's range-query workload that :func:`query_readings` compares.
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

    Examples
    --------
    Drawn by :func:`query_readings`:

    >>> import pandas as pd
    >>> q = query_readings(pd.DataFrame({"x": [0, 1, 2, 3]}), ["x"], n=2, rng=0)
    >>> q.reading, q.members[0].shape, q.to_workload().n_queries
    ('half', (2, 4), 2)
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
        """True answer / number of records, per query."""
        return self.answers / self.n_records

    def to_workload(self) -> Workload:
        """The queries as a :class:`privlib.metrics.Workload` (box queries only).

        Returns
        -------
        privlib.metrics.Workload

        Raises
        ------
        ValueError
            For a sample with value subsets (not boxes).
        """
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


def query_readings(df: pd.DataFrame, qi: Sequence[str], *, n: int, rng: int | np.random.Generator,
                   reading: str = "half", domain: Mapping[str, tuple[int, int]] | None = None,
                   subsets: Sequence[str] = (), max_rounds: int = 1000) -> QuerySample:
    """Draw ``n`` non-zero COUNT(*) queries under one reading of the source's workload.

    The source (Section III) draws "2,000 queries with non-zero true answers, each of which
    covers half of the domain of each attribute" and reports a median selectivity of about
    13% (Adult) and 8% (Census), without saying more.  The readings, per QI ``j`` with public
    domain ``[lo_j, hi_j]`` of ``W_j`` codes:

    * ``"half"`` -- ``ceil(W_j / 2)`` consecutive codes, start uniform inside the domain
      (the chapter's workload, :func:`privlib.metrics.range_workload`);
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

    Parameters
    ----------
    df, qi : pandas.DataFrame, sequence of str
        The data and its QIs (ordered integer codes).
    n : int
        Number of queries, >= 1.
    rng : int or numpy.random.Generator
        Required, keyword-only.
    reading : str
        One of :data:`QUERY_READINGS`.
    domain, max_rounds
        As in :func:`privlib.metrics.range_workload`.
    subsets : sequence of str
        Nominal QIs queried by value subsets.

    Returns
    -------
    QuerySample
        The queries (``members``, ``answers``, and box bounds when every condition is an interval).

    Raises
    ------
    TypeError, ValueError, RuntimeError
        For bad arguments (named in the message) or query masks too large for the domain;
        when ``max_rounds`` rounds find fewer than ``n`` non-zero queries.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": [0, 1, 2, 3, 3], "y": [0, 0, 1, 1, 1]})
    >>> q = query_readings(df, ["x", "y"], n=4, rng=0, reading="around_record")
    >>> q.answers.size, bool((q.answers > 0).all())
    (4, True)
    """
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    check_nonempty(df, "df")
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
    lo, hi = root_box(X, qi, domain=domain)
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
            ans = true_answers(Z, L, U, domain_lower=np.zeros_like(W), domain_upper=W - 1)
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

