"""Re-identification with external leakages: hypothetical and perceived information.

Massart & Standaert, *Towards long-term privacy bounds in open data publishing*
(source 002 of the compendium).  A database holds, for each user ``u_i``, ``N_o``
observations ``o_ij``; an adversary holding fresh observations of a user ("external
leakages") tries to find the user's pseudonym.  The risk is bounded with two
information-theoretic metrics computed from the database itself:

* the **hypothetical information** (Section III-B, the ``HI~`` equation)::

      HI = H[U] + sum_i Pr[u_i] sum_{o in D_i} f~(o|u_i) log2 Pr~[u_i|o]

  with the model ``g~`` estimated directly from all the data;
* the **perceived information** of one cross-validation fold ``j`` (the ``PI^(j)``
  equation)::

      PI^(j) = H[U] + sum_i Pr[u_i] sum_{o in D_i^(j)} 1/|D_i^(j)| log2 Pr^^(j)[u_i|o]

  with ``g^^(j)`` estimated without fold ``j``; PI is the mean over the ``K`` folds.

Both use Bayes with a uniform prior over users (Section II-C): ``Pr[u_i] = 1/n_u``,
``H[U] = log2 n_u`` and ``Pr[u_i|o] = g(o|u_i) / sum_j g(o|u_j)``.

Data layout
-----------
``obs`` is a *long table*: one row per observation, a user column and the
characteristic columns.  For the ratings of the source each row is one rated movie, one
column per category, holding the grade code when the movie belongs to the category and
``absent`` (default ``0``) otherwise -- so an observation with all 27 columns is one of
the source's ``5^27`` exhaustive bins (Section II-C).  :func:`rating_observations` builds
this table from a ratings table with ``|``-separated genres.

Models (Section II-C)
---------------------
* :func:`first_order` -- "treats the characteristics of each observation independently":
  every row is split into one *simplified observation* ``(c, o(c))`` per characteristic
  ``c`` whose value is not ``absent`` (the source: "each observation has been split into
  several independent ones"), and the model is one histogram over the pairs
  ``(c, value)`` (``5 * 27`` bins for the source).  ``N_o``, folds and leakages then
  count simplified observations, as in the source's ``N_o = 1,800``.
* :func:`exhaustive` -- one histogram over whole rows (every combination of
  characteristic values).  Only the combinations present in the data get a bin, and the
  counts are held per (user, bin) pair, never as a dense ``users x 5^27`` array.

Outliers in the PI (Section III-B: "negligible probabilities for correct users")
-------------------------------------------------------------------------------
A test observation whose correct-user probability is zero (the user never produced it
in the training folds, or nobody did) has ``log2 0 = -inf``.  The source handles these
"as in [6]" without giving the rule, so two explicit rules are offered:
``outliers="drop"`` (default) excludes such an **outlier** from its user's average (a
user whose test fold holds only outliers is left out of that fold's average over users);
``outliers="floor"`` replaces the zero probability by ``floor`` (default ``1 / n_u**2``,
i.e. ``-2 H[U]`` bits), which keeps every observation and lets PI become very negative.
Both rules are computed in one pass when ``outliers=("drop", "floor")``.  The fraction of
outlier test observations is reported as ``f_o``.  The two rules give qualitatively
different PI curves (see the chapter), so a PI value is only meaningful with its rule.

Everything is vectorised with ``pandas.factorize``, ``numpy.bincount`` and
``scipy.sparse``; no Python loop runs over records or users.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import sparse

from ._validation import (
    _fmt,
    as_generator,
    check_columns,
    check_finite,
    check_in,
    check_int,
    check_no_nan,
    check_nonempty,
    check_positive,
    check_probability,
    check_unique_columns,
)

__all__ = [
    "Model",
    "first_order",
    "exhaustive",
    "Records",
    "encode",
    "cut",
    "observation_counts",
    "Information",
    "hypothetical_information",
    "perceived_information",
    "success_rate",
    "category_prediction",
    "category_density",
    "swap",
    "rating_observations",
    "GRANULARITIES",
    "leakages_needed",
    "largest_step",
    "information_table",
    "information_curve",
]

FIRST_ORDER = "first-order"
EXHAUSTIVE = "exhaustive"
GRANULARITIES = ("no-grade", "like-dislike", "5-star")
OUTLIER_RULES = ("drop", "floor")
_BLOCK_ROWS = 1 << 20  # rows (or records) per block in encode and the fold draw: bounds memory
#: Largest value a combined integer key ``a * width + b`` may take (int64); past it the pairs
#: are coded by a safe grouping instead (:func:`_pair_keys`).  A module constant so that the
#: tests can lower it and exercise the fallback on small data.
_KEY_LIMIT = 2**63 - 1
#: Integer columns whose range ``max - min`` is below this are coded by a shift (no hashing);
#: wider ranges (e.g. values near the int64 limits) are factorized, so codes stay small.
_SHIFT_RANGE = 1 << 31
#: Ratings accepted by :func:`rating_observations` (half stars from 0.5, as MovieLens, to 5).
RATING_RANGE = (0.5, 5.0)


# ---------------------------------------------------------------------------- models
@dataclass(frozen=True)
class Model:
    """A statistical model of ``g(o|u)`` (Section II-C).

    Attributes
    ----------
    kind : ``"first-order"`` or ``"exhaustive"``.
    absent : the characteristic value meaning "this characteristic is not part of the
        observation" (a movie not in category ``c``).  The first-order split skips it; both
        models use it to define an observation's *categories* (the characteristics that
        are not ``absent``) for :func:`category_prediction`.
    """

    kind: str
    absent: object = 0

    def __post_init__(self):
        check_in(self.kind, "kind", (FIRST_ORDER, EXHAUSTIVE))

    def __str__(self) -> str:  # pragma: no cover - display only
        return self.kind


def first_order(absent=0) -> Model:
    """First-order model: a histogram over the pairs ``(characteristic, value)``.

    ``g~_1(o(c)|u_i) = (1/N_o^i) sum_{o' in D_i} [o'(c) = o(c)]`` (Section II-C, first
    equation), applied to the simplified observations ``(c, o(c))`` obtained by splitting
    each row into one observation per characteristic whose value is not ``absent``.
    """
    return Model(FIRST_ORDER, absent)


def exhaustive(absent=0) -> Model:
    """Exhaustive model: one histogram over whole observations (Section II-C, ``g~_ex``)."""
    return Model(EXHAUSTIVE, absent)


def _check_model(model) -> Model:
    if not isinstance(model, Model):
        raise TypeError(f"model: expected first_order() or exhaustive(), got {type(model).__name__} {_fmt(model)}")
    return model


# ---------------------------------------------------------------------------- encoding
@dataclass(frozen=True)
class Records:
    """Observations of one model as integer codes, grouped by user.

    ``user[r]``, ``symbol[r]`` (the model's histogram bin) and ``category[r]`` (the
    categories of the observation: the characteristic for the first-order model, the
    combination of non-``absent`` characteristics for the exhaustive one) for each record
    ``r``; records of a user are contiguous and in the order of ``obs``.  ``row[r]`` is
    the position in ``obs`` of the row the record comes from, ``counts`` the number of
    records of each user (``N_o^i``).  The record arrays are int32 whenever they fit (a
    full-scale first-order table holds 23.7 million records).  ``n_empty`` counts the
    users of ``obs`` that have no record at all (left out of ``users``).
    """

    user: np.ndarray
    symbol: np.ndarray
    category: np.ndarray
    users: np.ndarray
    n_symbols: int
    n_categories: int
    counts: np.ndarray = field(repr=False)
    model: Model = field(default_factory=first_order)
    row: np.ndarray | None = field(default=None, repr=False)
    #: users of ``obs`` left out because they have no record of the model (every
    #: characteristic ``absent``; only without ``n_obs``)
    n_empty: int = 0

    @property
    def n_users(self) -> int:
        return len(self.users)

    @property
    def n_obs(self) -> int:
        """``N_o`` when every user has the same number of records, else -1."""
        return int(self.counts[0]) if np.all(self.counts == self.counts[0]) else -1


def _compact(key: np.ndarray, dtype=np.int64, ordered=True) -> tuple[np.ndarray, int]:
    """Dense codes 0..n-1 of an int64 array, in increasing order of the keys.  Small
    non-negative ranges go through ``np.bincount`` (no hashing); others through
    ``pandas.factorize``.  ``dtype``: integer dtype of the codes returned.  With
    ``ordered=False`` hashed codes follow the order of first appearance (no sort of the
    distinct keys; deterministic) -- for internal ids whose order does not matter."""
    if len(key) == 0:
        return key.astype(dtype), 1
    lo, hi = int(key.min()), int(key.max())
    if lo >= 0 and hi < max(4 * len(key), 1 << 20) and hi < 1 << 25:
        used = np.bincount(key, minlength=hi + 1) > 0
        if used.all():                     # already dense: the remap is the identity
            return key.astype(dtype, copy=False), hi + 1
        remap = (np.cumsum(used) - 1).astype(dtype)
        return remap[key], int(used.sum())
    code, uniq = pd.factorize(key, sort=ordered)
    return code.astype(dtype, copy=False), max(len(uniq), 1)


def _factorize_sorted(col: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(col, sort=True)`` as int64 codes; integer columns of a small range are
    coded by counting (no hashing), with the same codes and sorted uniques."""
    v = col.to_numpy()
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "iu" and len(v):
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < min(max(4 * len(v), 1 << 20), 1 << 25):
            code, n = _compact((v - v.dtype.type(lo)).astype(np.int64))
            at = np.zeros(n, dtype=np.int64)
            at[code] = np.arange(len(code))          # a row holding each value
            return code, v[at]
    code, uniq = pd.factorize(col, sort=True)
    return code.astype(np.int64), np.asarray(uniq)


def _itype(n: int):
    """Smallest of int32/int64 that indexes ``n`` items: record arrays are held in int32
    (half the memory of int64) whenever they fit."""
    return np.int32 if n < 2**31 else np.int64


def _code_plan(frame: pd.DataFrame, columns=None):
    """How to code every column as 0..k-1: per column either ``("shift", values, lo)``
    (integer columns, shifted by their minimum: no hashing, no copy) or ``("codes",
    codes, None)`` (other columns, factorized), and the list of cardinalities."""
    plan, cards = [], []
    for col in (frame.columns if columns is None else columns):
        v = frame[col].to_numpy()
        if np.issubdtype(v.dtype, np.bool_):
            v = v.astype(np.int8)
        lo, hi = (int(v.min()), int(v.max())) if np.issubdtype(v.dtype, np.integer) and len(v) else (0, None)
        if hi is not None and hi - lo < _SHIFT_RANGE:
            plan.append(("shift", v, lo))
            cards.append(hi - lo + 1)
        else:  # other dtypes, and integer ranges too wide to shift safely (no int64 overflow)
            c, uniq = pd.factorize(frame[col], sort=True)
            plan.append(("codes", c, None))
            cards.append(max(len(uniq), 1))
    return plan, cards


def _code_dtype(cards):
    return np.int8 if max(cards) < 2**7 else np.int16 if max(cards) < 2**15 else np.int64


def _apply_plan(plan, cards, a=0, b=None):
    """Rows ``a:b`` of the coded 2-d array (one column per characteristic, the smallest
    integer dtype that fits)."""
    n = len(plan[0][1]) if b is None else min(b, len(plan[0][1]))
    out = np.empty((n - a, len(plan)), dtype=_code_dtype(cards), order="F")
    for j, step in enumerate(plan):  # loop over characteristics, not records
        how, v, lo = step
        out[:, j] = _plan_column((how, v[a:n], lo))
    return out


def _pop_concat(parts: list) -> np.ndarray:
    """Concatenate a list of arrays and empty it (the blocks are freed at once)."""
    out = np.concatenate(parts)
    parts.clear()
    return out


def _plan_column(step) -> np.ndarray:
    """One coded column (0..k-1) of a :func:`_code_plan` entry."""
    how, v, lo = step
    if how == "codes" or lo == 0:
        return v
    # subtract in the column's own dtype (max - min < _SHIFT_RANGE: no overflow, and uint64
    # values above the int64 range are never cast first), then widen
    return (v - v.dtype.type(lo)).astype(np.int64)


def _combine(arrs, cards, n) -> tuple[np.ndarray, int]:
    """Mixed-radix combination of ``n``-long code columns (any iterable: a generator
    keeps one column in memory at a time), compacted whenever the radix product would
    overflow int64 (so any number of columns works)."""
    code = np.zeros(n, dtype=np.int64)
    card = 1
    for c, k in zip(arrs, cards):
        if card * k > _KEY_LIMIT // 2:
            code, card = _compact(code)
            if card * k > _KEY_LIMIT // 2:  # still too wide: code the (code, c) pairs safely
                code, card = _pair_codes(code, np.asarray(c))
                continue
        code *= k          # in place: no full-length temporaries
        code += np.asarray(c)
        card *= k
    return _compact(code)


def _row_codes(plan, cards, n) -> tuple[np.ndarray, int]:
    """Dense codes of the rows' combinations of coded column values, in lexicographic
    order (the order of the mixed-radix key ``((c_1 k_2 + c_2) k_3 + c_3) ...``).

    Columns are first combined in groups whose radix product stays below ``2**20`` (cheap
    passes over small integers), each group is compacted by counting, and the groups are
    combined one by one, compacting after each (while the radix product stays small) or
    by :func:`_combine` (int64-safe).  Same codes as :func:`_combine` over all the columns."""
    groups, gcards = [], []
    group, gcard = None, 1
    for step, k in zip(plan, cards):
        col = _plan_column(step)
        if group is not None and gcard * k < 1 << 20:
            group *= k
            group += col
            gcard *= k
            continue
        if group is not None:
            groups.append(group)
            gcards.append(gcard)
        group = np.asarray(col, dtype=np.int32 if k < 2**31 else np.int64).copy()
        gcard = k
    groups.append(group)
    gcards.append(gcard)
    compacted = [_compact(g) for g in groups]
    del groups
    code, card = compacted[0]
    for j, (c, k) in enumerate(compacted[1:], start=1):
        if card * k >= 1 << 25:  # wide: the int64-safe mixed radix of the remaining groups
            rest, rcard = _combine((x for x, _ in compacted[j:]), [x for _, x in compacted[j:]], n)
            return _pair_codes(code, rest) if card * rcard > _KEY_LIMIT // 2 else _compact(code * rcard + rest)
        code = code * k + c          # small radix product: compacted by counting, not hashing
        code, card = _compact(code)
    return code, card


def _pair_codes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense codes of the pairs ``(a[r], b[r])`` in lexicographic order -- the order of
    ``a * width + b`` -- without forming that product (no int64 overflow)."""
    if len(a) == 0:
        return np.zeros(0, dtype=np.int64), 1
    _, inv = np.unique(np.stack([np.asarray(a, np.int64), np.asarray(b, np.int64)], axis=1),
                       axis=0, return_inverse=True)
    inv = np.asarray(inv, dtype=np.int64).ravel()
    return inv, int(inv.max()) + 1


def _pair_keys(width: int, *pairs) -> list:
    """Combined keys of several ``(a, b)`` arrays sharing one key space, ``0 <= b < width``.

    ``a * width + b`` (int64) when the largest such key fits under ``_KEY_LIMIT``;
    otherwise dense lexicographic codes of all the pairs at once (same order, so sorting and
    searching give the same answers).  Returns one key array per ``(a, b)``.
    """
    top = max((int(np.max(a)) for a, _ in pairs if len(a)), default=0)
    if (top + 1) * int(width) <= _KEY_LIMIT:
        return [np.asarray(a, np.int64) * int(width) + np.asarray(b, np.int64) for a, b in pairs]
    codes, _ = _pair_codes(np.concatenate([np.asarray(a, np.int64) for a, _ in pairs]),
                           np.concatenate([np.asarray(b, np.int64) for _, b in pairs]))
    cuts = np.cumsum([len(a) for a, _ in pairs])[:-1]
    return np.split(codes, cuts)


def _prepare(obs, user, characteristics):
    if not isinstance(obs, pd.DataFrame):
        raise TypeError(f"obs: expected a pandas DataFrame (long table), got {type(obs).__name__}")
    check_nonempty(obs, "obs")
    check_unique_columns(obs, "obs")
    check_columns(obs, [user], "user")
    if characteristics is None:
        characteristics = [c for c in obs.columns if c != user]
    characteristics = check_columns(obs, characteristics, "characteristics")
    if not characteristics:
        raise ValueError("characteristics: expected at least one characteristic column, got none")
    if len(set(characteristics)) < len(characteristics):
        raise ValueError(f"characteristics: duplicated name(s) in {characteristics}")
    if user in characteristics:
        raise ValueError(f"characteristics: the user column {user!r} cannot be a characteristic")
    # integer and boolean columns cannot hold NaN: only the others are scanned (no copy of
    # the whole table for the check)
    nullable = [c for c in (user, *characteristics)
                if not (isinstance(obs[c].dtype, np.dtype) and obs[c].dtype.kind in "iub")]
    if nullable:
        check_no_nan(obs, "obs", nullable)
    return characteristics


def encode(obs, model, *, user="user", characteristics=None, n_obs=None) -> Records:
    """Turn the long table ``obs`` into the records of ``model``.

    Parameters
    ----------
    obs : DataFrame, one row per observation (a user column and characteristic columns).
    model : :func:`first_order` or :func:`exhaustive`.
    user : name of the user column.
    characteristics : the characteristic columns (default: every other column).
    n_obs : int, optional
        Keep only the users with at least ``n_obs`` records of the model and cut each to
        its first ``n_obs`` (in the order of ``obs``): the source's reduction "removed all
        the users with less than 1000 observations and kept this same amount of
        observations from each" (Section IV).  Without it, every user must already have
        the same number of records (the source assumes ``N_o^i = N_o``, Section III-A).
        Without it, users with no record at all (first-order model, every characteristic
        ``absent``) are left out and counted in ``Records.n_empty``; the HI / PI / attack
        functions then refuse the database unless ``require_equal=False``.

    Raises
    ------
    ValueError
        Missing characteristic values, an empty table, duplicated column names or
        characteristics, fewer than two users, or unequal ``N_o`` without ``n_obs``.
    TypeError
        ``obs`` not a DataFrame, ``model`` not a :class:`Model`.

    Notes
    -----
    Every row is coded once as its *pattern* (the combination of its values: the
    exhaustive model's bin); the first-order records are then read off the table of the
    distinct patterns (a few thousand for the source's data), so the characteristic
    columns are scanned once, whatever the model.
    Combined integer codes (user x symbol, column codes in mixed radix) are guarded
    against int64 overflow: integer columns whose range exceeds ``2**31`` are factorized
    rather than shifted, and past the int64 bound the pairs are coded by
    ``np.unique(axis=0)`` (:func:`_pair_keys`), which keeps the same order.
    """
    model = _check_model(model)
    chars = _prepare(obs, user, characteristics)
    ucode, users = _factorize_sorted(obs[user])
    n_char = len(chars)
    # Every row is coded once as its *pattern* (the combination of its characteristic
    # values: the exhaustive model's bin); both models are then read off the table of the
    # distinct patterns (a few thousand rows), so no per-record work touches the columns.
    plan, cards = _code_plan(obs, chars)
    pattern, n_pat = _row_codes(plan, cards, len(ucode))
    rep = np.empty(n_pat, dtype=np.int64)
    rep[pattern] = np.arange(len(pattern))               # one row of each pattern
    pat_codes = np.stack([np.asarray(_plan_column((how, v[rep], lo)), dtype=np.int64)
                          for how, v, lo in plan], axis=1)                       # n_pat x n_char
    pat_present = np.stack([obs[c].to_numpy()[rep] != model.absent for c in chars], axis=1)
    if model.kind == EXHAUSTIVE:
        symbol = pattern
        pat_cat, _ = _combine(list(pat_present.T), [2] * n_char, n_pat)
        category = pat_cat[pattern]
        rec_user = ucode
        rec_row = np.arange(len(ucode), dtype=np.int64)
    else:
        # one record per (row, present characteristic), row-major so that records stay in
        # the order of obs: the present characteristics of each pattern, expanded row by row
        pp, pc_ = np.nonzero(pat_present)                 # entries sorted by (pattern, characteristic)
        width = max(cards)
        e_sym = pc_.astype(np.int64) * width + pat_codes[pp, pc_]
        pat_n = np.bincount(pp, minlength=n_pat)
        pat_start = np.concatenate([[0], np.cumsum(pat_n)[:-1]])
        rows = np.arange(len(ucode))
        if n_obs is not None and (len(ucode) < 2 or np.all(ucode[1:] >= ucode[:-1])):
            # rows grouped by user: expand only the rows whose records can be among the
            # first n_obs of their user (the cut below is exact either way)
            nr = pat_n[pattern]
            before = np.cumsum(nr) - nr
            first_row = np.concatenate([[0], np.cumsum(np.bincount(ucode))[:-1]])[ucode]
            rows = np.flatnonzero(before - before[first_row] < int(n_obs))
        nr = pat_n[pattern[rows]]
        it = _itype(max(int(nr.sum()), len(ucode), int(e_sym.max(initial=0)) + 1))
        ent = _itype(max(int(nr.sum()), len(e_sym)) + 1)
        entry = np.repeat((pat_start[pattern[rows]] - (np.cumsum(nr) - nr)).astype(ent), nr)
        entry += np.arange(len(entry), dtype=ent)
        rec_row = np.repeat(rows.astype(it), nr)
        rec_user = ucode.astype(it)[rec_row]
        symbol = e_sym.astype(it)[entry]
        category = pc_.astype(it)[entry]
        del entry
    n_users_all = len(users)
    if len(rec_user) > 1 and np.any(rec_user[1:] < rec_user[:-1]):
        order = np.argsort(rec_user, kind="stable")
        rec_user, symbol, category, rec_row = rec_user[order], symbol[order], category[order], rec_row[order]
    counts = np.bincount(rec_user, minlength=n_users_all)
    if n_obs is not None:
        n_obs = check_int(n_obs, "n_obs", minimum=1)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        keep_user = counts >= n_obs
        keep = keep_user[rec_user]
        it = _itype(len(rec_user))
        rank = starts.astype(it)[rec_user]
        np.subtract(np.arange(len(rec_user), dtype=it), rank, out=rank)
        keep &= rank < n_obs
        del rank
        if keep_user.sum() < 2:
            raise ValueError(
                f"n_obs: only {int(keep_user.sum())} user(s) have at least {n_obs} {model.kind} observations; "
                "expected at least two users")
        newcode = (np.cumsum(keep_user) - 1).astype(rec_user.dtype)
        rec_user, symbol, category, rec_row = newcode[rec_user[keep]], symbol[keep], category[keep], rec_row[keep]
        users = np.asarray(users)[keep_user]
        counts = np.full(len(users), n_obs, dtype=np.int64)
    else:
        users = np.asarray(users)
        nonzero = counts > 0
        n_empty = int((~nonzero).sum())
        if n_empty:  # users whose rows are all absent have no first-order record
            newcode = np.cumsum(nonzero) - 1
            rec_user = newcode[rec_user]
            users, counts = users[nonzero], counts[nonzero]
    if len(users) < 2:
        raise ValueError(f"obs: expected at least two users, got {len(users)}")
    # compact the symbol and category codes to the records kept; int32 where it fits
    it = _itype(max(len(rec_user), len(users)))
    symbol, n_sym = _compact(symbol, it)
    category, n_cat = _compact(category, it)
    return Records(rec_user.astype(it, copy=False), symbol, category, users, n_sym, n_cat, counts, model,
                   rec_row.astype(it, copy=False), n_empty if n_obs is None else 0)


def cut(records: Records, n_obs) -> Records:
    """The first ``n_obs`` records of every user that has at least ``n_obs`` (Section IV).

    Same records and codes as ``encode(obs, model, n_obs=n_obs)``, without encoding the
    table again: encode once without ``n_obs`` and cut to every database size needed.

    Raises
    ------
    TypeError
        ``records`` not a :class:`Records`.
    ValueError
        ``n_obs`` not a positive integer, or fewer than two users with ``n_obs`` records.
    """
    if not isinstance(records, Records):
        raise TypeError(f"records: expected Records from encode(), got {type(records).__name__}")
    n_obs = check_int(n_obs, "n_obs", minimum=1)
    rec = records
    counts = np.asarray(rec.counts)
    if np.all(counts == n_obs) and rec.n_empty == 0:
        return rec                     # already the database of N_o = n_obs (codes are compact)
    keep_user = counts >= n_obs
    if keep_user.sum() < 2:
        raise ValueError(f"n_obs: only {int(keep_user.sum())} user(s) have at least {n_obs} {rec.model.kind} "
                         "observations; expected at least two users")
    it = rec.user.dtype
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(it)
    rank = np.arange(len(rec.user), dtype=it)
    rank -= starts[rec.user]
    keep = keep_user[rec.user]
    keep &= rank < n_obs
    del rank
    newcode = (np.cumsum(keep_user) - 1).astype(it)
    symbol, n_sym = _compact(rec.symbol[keep], rec.symbol.dtype)
    category, n_cat = _compact(rec.category[keep], rec.category.dtype)
    return Records(newcode[rec.user[keep]], symbol, category, np.asarray(rec.users)[keep_user], n_sym, n_cat,
                   np.full(int(keep_user.sum()), n_obs, dtype=np.int64), rec.model,
                   None if rec.row is None else rec.row[keep], 0)


def _records(obs, model, user, characteristics, n_obs, *, equal=True) -> Records:
    if isinstance(obs, Records) and (n_obs is not None or characteristics is not None):
        bad = "n_obs" if n_obs is not None else "characteristics"
        raise ValueError(f"{bad}: obs is already encoded (Records); pass {bad}= to encode() instead, "
                         f"got {bad}={_fmt(n_obs if bad == 'n_obs' else characteristics)}")
    rec = obs if isinstance(obs, Records) else encode(obs, model, user=user,
                                                        characteristics=characteristics, n_obs=n_obs)
    if equal and rec.n_empty:
        raise ValueError(
            f"obs: {rec.n_empty} user(s) have no {rec.model.kind} observation (every characteristic absent), so "
            f"N_o^i differs between users; the source's formulas assume N_o^i = N_o (Section III-A): pass n_obs= "
            "to keep the users with N_o observations, or require_equal=False to leave them out")
    if equal and rec.n_obs < 0:
        raise ValueError(
            f"obs: unequal numbers of {rec.model.kind} observations per user (from {rec.counts.min()} to "
            f"{rec.counts.max()}); the source's formulas assume N_o^i = N_o (Section III-A): pass n_obs= "
            "to cut every user to the same N_o")
    return rec


def observation_counts(obs, model, *, user="user", characteristics=None) -> pd.Series:
    """Number of records of ``model`` per user (``N_o^i``), indexed by user.

    Every user of ``obs`` is listed, including those with no record of the model (0: a
    user whose rows are all ``absent`` has no first-order record; :func:`encode` leaves
    such users out of the database).
    """
    rec = encode(obs, model, user=user, characteristics=characteristics)
    out = pd.Series(rec.counts, index=pd.Index(rec.users, name=user), name="n_obs")
    every = pd.Index(pd.unique(obs[user]), name=user).sort_values()  # sort: unique keys
    if len(every) != len(out):
        out = out.reindex(every, fill_value=0)
    return out


# ---------------------------------------------------------------------------- HI and PI
@dataclass(frozen=True)
class Information:
    """A hypothetical or perceived information estimate, in bits.

    ``bits`` is the average over users (and folds, for PI); ``per_user`` the
    contribution ``H[U] + sum_o f(o|u_i) log2 Pr[u_i|o]`` of each user (its mean over the
    folds for PI), whose spread is the "surface" of Figure 2; ``outlier_fraction`` is
    ``f_o`` (zero for HI).
    """

    metric: str
    model: str
    bits: float
    per_user: pd.Series
    entropy: float
    n_users: int
    n_obs: int
    folds: int | None = None
    per_fold: tuple = ()
    outlier_fraction: float = 0.0
    outlier_rule: str = ""


def _pairs(rec: Records):
    """Factorize the (user, symbol) pairs: per-record pair id and per-pair user/symbol/count."""
    (key,) = _pair_keys(rec.n_symbols, (rec.user, rec.symbol))   # guarded: no int64 overflow
    pid, n_pairs = _compact(key, _itype(len(key)), ordered=False)   # pair ids: any fixed order
    pu = np.empty(n_pairs, dtype=np.int64)
    ps = np.empty(n_pairs, dtype=np.int64)
    pu[pid] = rec.user
    ps[pid] = rec.symbol
    pc = np.bincount(pid, minlength=n_pairs).astype(np.float64)
    return pid, pu, ps, pc


def hypothetical_information(obs, model=None, *, user="user", characteristics=None, n_obs=None,
                             require_equal=True) -> Information:
    """Hypothetical information ``HI~(U; O)`` in bits (Section III-B, first equation).

    ``HI = log2 n_u + (1/n_u) sum_i sum_{o in D_i} f~(o|u_i) log2 Pr~[u_i|o]`` with the
    model estimated directly from all of ``D_i`` (Section II-B) and
    ``Pr~[u_i|o] = g~(o|u_i) / sum_j g~(o|u_j)`` (Section II-C).  Every observation of
    ``D_i`` has ``g~(o|u_i) > 0``, so there are no outliers.

    Parameters
    ----------
    obs : DataFrame (long table) or :class:`Records` from :func:`encode`.
    model : :func:`first_order` or :func:`exhaustive` (ignored for Records).
    n_obs : cut every user to ``N_o = n_obs`` observations (see :func:`encode`).
    require_equal : bool
        The source assumes ``N_o^i = N_o`` (Section III-A) and so, by default, do we:
        unequal numbers raise.  With ``False`` each user's ``f~(o|u_i)`` is normalised by
        its own ``N_o^i`` (the formula as written; the prior stays uniform).
    """
    rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
    return _hi(rec, _pairs(rec), user)


def _hi(rec: Records, pairs, user) -> Information:
    """:func:`hypothetical_information` of encoded records from their :func:`_pairs`."""
    pid, pu, ps, pc = pairs
    n_u = rec.n_users
    f = pc / rec.counts[pu]                                  # f~(o|u_i) = g~(o|u_i)
    total = np.bincount(ps, weights=f, minlength=rec.n_symbols)  # sum_j g~(o|u_j)
    contrib = f * np.log2(f / total[ps])
    h = float(np.log2(n_u))
    per_user = h + np.bincount(pu, weights=contrib, minlength=n_u)
    return Information("HI", rec.model.kind, float(per_user.mean()),
                       pd.Series(per_user, index=pd.Index(rec.users, name=user), name="HI"),
                       h, n_u, rec.n_obs)


def _folds(rec: Records, folds, rng) -> np.ndarray:
    """Fold of every record: a random permutation within each user, dealt round-robin,
    so that the K folds of a user differ in size by at most one (Section II-B).

    With equal ``N_o`` the round-robin labels ``0, 1, ..., K-1, 0, ...`` of each user are
    shuffled in place (``Generator.permuted``, one Fisher-Yates pass per user: linear
    time), in blocks of users so that memory stays bounded; the draws do not depend on
    the block size."""
    gen = as_generator(rng)
    folds = check_int(folds, "folds", minimum=2)
    smallest = int(rec.counts.min())
    if folds > smallest:
        raise ValueError(
            f"folds: expected at most N_o = {smallest} (the smallest number of {rec.model.kind} observations "
            f"of a user), got {folds}")
    if np.all(rec.counts == rec.counts[0]):  # equal N_o: shuffle the labels of each user
        step = max(1, _BLOCK_ROWS // smallest)
        labels = (np.arange(smallest) % folds).astype(np.int32)
        return np.concatenate([gen.permuted(np.tile(labels, (min(step, rec.n_users - a), 1)), axis=1).ravel()
                               for a in range(0, rec.n_users, step)])
    order = _shuffle_within(rec.user, gen)
    starts = np.concatenate([[0], np.cumsum(rec.counts)[:-1]])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - starts[rec.user[order]]
    return (rank % folds).astype(np.int32)


def _fold_tests(fold: np.ndarray, k: int):
    """The record indices of each fold's test set, in record order, one fold at a time
    (a pass over ``fold`` per fold: memory of one fold's indices, never a full-length
    index array)."""
    return (np.flatnonzero(fold == j) for j in range(k))


def _shuffle_within(group: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Order sorting the records by ``group`` and at random within each group: one uniform
    key per record, sorted by ``(group, key)``.  Two keys (``np.lexsort``), not the float
    ``group + key``, which rounds up into the next group for large group codes."""
    return np.lexsort((gen.random(len(group)), group))


def _protected_folds(obs, protect, model, user, characteristics, n_obs, folds, rng):
    """Yield, for each fold, the records of (original test rows + protected training rows)
    and the (train, test) record masks.  Folds are drawn per row of ``obs``; ``protect``
    is applied to the training rows only, so the test rows stay genuinely fresh."""
    if n_obs is not None:
        raise ValueError("n_obs: cut obs before protecting it; n_obs cannot be combined with protect=")
    if not callable(protect):
        raise TypeError(f"protect: expected a function of the training rows (e.g. lambda d: swap(d, ...)), "
                        f"got {type(protect).__name__}")
    chars = _prepare(obs, user, characteristics)
    gen = as_generator(rng)
    k = check_int(folds, "folds", minimum=2)
    ucode, _ = pd.factorize(obs[user], sort=True)
    rows_per_user = np.bincount(ucode)
    if len(rows_per_user) < 2:
        raise ValueError(f"obs: expected at least two users, got {len(rows_per_user)}")
    if k > rows_per_user.min():
        raise ValueError(f"folds: expected at most {int(rows_per_user.min())} (the smallest number of rows "
                         f"of a user), got {k}")
    n = len(obs)
    order = _shuffle_within(ucode, gen)
    starts = np.concatenate([[0], np.cumsum(rows_per_user)[:-1]])
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - starts[ucode[order]]
    row_fold = rank % k
    base = obs[[user, *chars]]
    for j in range(k):
        test_rows = base[row_fold == j]
        train_rows = protect(base[row_fold != j])
        if not isinstance(train_rows, pd.DataFrame) or len(train_rows) != int((row_fold != j).sum()):
            raise ValueError("protect: expected a DataFrame with the same rows as its input")
        both = pd.concat([test_rows, train_rows[[user, *chars]]], ignore_index=True)
        rec = encode(both, model, user=user, characteristics=chars)
        is_test = rec.row < len(test_rows)
        yield rec, ~is_test, is_test


def perceived_information(obs, model, folds, *, rng, user="user", characteristics=None, n_obs=None,
                          outliers="drop", floor=None, require_equal=True,
                          protect=None) -> Information | dict[str, Information]:
    """Perceived information ``PI^(U; O)`` in bits, K-fold cross-validated (Section III-B).

    ``PI^(j) = log2 n_u + (1/n_u) sum_i (1/|D_i^(j)|) sum_{o in D_i^(j)} log2 Pr^^(j)[u_i|o]``
    with ``g^^(j)`` estimated on ``D_i \\ D_i^(j)`` (Section II-C, second equation), then
    averaged over the ``K = folds`` folds.  Each user's observations are split into K
    folds at random (``rng``).

    Outliers (test observations with ``Pr^^(j)[u_i|o] = 0``): ``outliers="drop"``
    excludes them from the user's average (a user whose fold holds only outliers is left
    out of that fold's mean over users); ``outliers="floor"`` uses ``floor`` (default
    ``1/n_u**2``) instead of 0.  ``outlier_fraction`` is their share of all test
    observations, the source's ``f_o``.  ``outliers`` may also be a tuple of rules: both
    are computed in one pass and a dict ``{rule: Information}`` is returned.

    ``rng`` (required, keyword-only): int seed or ``numpy.random.Generator`` for the fold
    draw (and nothing else).

    ``protect`` (optional): a function applied to the training rows of each fold before
    the model is estimated, e.g. ``lambda d: swap(d, cats, rng=gen)``.  The model is then
    trained on the *protected* rows of the other folds and tested on the *original* rows
    of the fold: the predictive power of a protected release against genuine fresh
    observations (external leakages).  Folds are then drawn per row of ``obs``.

    Raises
    ------
    ValueError
        ``folds < 2`` or more than a user's number of observations, fewer than two
        users, unequal ``N_o`` (unless ``require_equal=False``, see
        :func:`hypothetical_information`), missing values, an empty tuple of
        ``outliers`` rules, ``floor`` outside ``(0, 1]``.

    Returns
    -------
    Information
        When ``outliers`` is one rule (a string).
    dict
        ``{rule: Information}`` when ``outliers`` is a tuple of rules.
    """
    rules = _check_rules(outliers)
    gen = as_generator(rng)
    if floor is not None:
        check_probability(floor, "floor", low_open=True)
    out = _perceived(obs, model, folds, gen, user=user, characteristics=characteristics, n_obs=n_obs,
                     floor=floor, require_equal=require_equal, protect=protect)
    return out[rules[0]] if isinstance(outliers, str) else {r: out[r] for r in rules}


def _check_rules(outliers) -> tuple:
    """The ``outliers`` argument as a non-empty tuple of rules of ``OUTLIER_RULES``."""
    if isinstance(outliers, str):
        rules = (outliers,)
    elif isinstance(outliers, (tuple, list)):
        rules = tuple(outliers)
    else:
        raise TypeError(f"outliers: expected a rule {list(OUTLIER_RULES)} or a tuple of rules, "
                        f"got {type(outliers).__name__} {_fmt(outliers)}")
    if not rules:
        raise ValueError(f"outliers: expected at least one rule of {list(OUTLIER_RULES)}, got an empty tuple")
    for r in rules:
        check_in(r, "outliers", OUTLIER_RULES)
    return rules


def _perceived(obs, model, folds, rng, *, user, characteristics, n_obs, floor, require_equal, protect,
               pairs=None):
    """Both outlier rules of :func:`perceived_information` in one pass over the folds.

    Each fold works at the level of the (user, symbol) pairs: the test records of fold
    ``j`` are counted per pair (``ct``), the training model is ``g^^(j) = (pc - ct) /
    n_train`` and the log-probabilities of the test records are summed per pair with
    multiplicity ``ct`` -- so a fold costs its own test records plus the pairs, not the
    whole database.  ``pairs``: the :func:`_pairs` of ``obs`` when already computed."""
    k = check_int(folds, "folds", minimum=2)
    if protect is None:
        rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
        fold = _folds(rec, k, rng)
        pairs = _pairs(rec) if pairs is None else pairs
        plan = ((rec, pairs, test) for test in _fold_tests(fold, k))
    else:
        plan = ((r, _pairs(r), np.flatnonzero(te)) for r, _, te in
                _protected_folds(obs, protect, model, user, characteristics, n_obs, folds, rng))
    per_fold = {r: [] for r in OUTLIER_RULES}
    sums = {}
    n_out = n_test_all = 0
    for rec, (pid, pu, ps, pc), test in plan:  # loop over the K folds only
        n_u = rec.n_users
        if not sums:
            sums = {r: (np.zeros(n_u), np.zeros(n_u)) for r in OUTLIER_RULES}
            h = float(np.log2(n_u))
            fl = check_positive(1.0 / n_u**2 if floor is None else floor, "floor")
        ct = np.bincount(pid[test], minlength=len(pc)).astype(np.float64)   # test records per pair
        n_test = np.bincount(pu, weights=ct, minlength=n_u)
        n_train = rec.counts - n_test
        g = (pc - ct) / np.maximum(n_train, 1)[pu]                            # g^^(j)(o|u_i)
        total = np.bincount(ps, weights=g, minlength=rec.n_symbols)          # sum_j g^^(j)(o|u_j)
        seen = np.flatnonzero(ct > 0)
        num, den, w = g[seen], total[ps[seen]], ct[seen]
        ok = num > 0
        lg = np.zeros(len(seen))
        lg[ok] = np.log2(num[ok] / den[ok])
        n_out += int(w[~ok].sum())
        n_test_all += int(w.sum())
        s_ok = np.bincount(pu[seen], weights=w * lg, minlength=n_u)
        m_ok = np.bincount(pu[seen], weights=w * ok, minlength=n_u)
        for rule in OUTLIER_RULES:
            if rule == "drop":
                s_, m_ = s_ok, m_ok
            else:
                s_, m_ = s_ok + (n_test - m_ok) * np.log2(fl), n_test
            has = m_ > 0
            user_pi = np.full(n_u, np.nan)
            user_pi[has] = h + s_[has] / m_[has]
            per_fold[rule].append(float(user_pi[has].mean()) if has.any() else float("nan"))
            sums[rule][0][has] += user_pi[has]
            sums[rule][1][has] += 1
    out = {}
    for rule in OUTLIER_RULES:
        tot, cnt = sums[rule]
        per_user = np.full(len(tot), np.nan)
        per_user[cnt > 0] = tot[cnt > 0] / cnt[cnt > 0]
        pf = np.asarray(per_fold[rule])
        bits = float(pf[~np.isnan(pf)].mean()) if np.any(~np.isnan(pf)) else float("nan")
        out[rule] = Information("PI", rec.model.kind, bits,
                                pd.Series(per_user, index=pd.Index(rec.users, name=user), name="PI"),
                                h, len(tot), rec.n_obs, len(pf), tuple(per_fold[rule]),
                                n_out / max(n_test_all, 1), rule)
    return out


def leakages_needed(bits, n_users, c=1.0) -> float:
    """Leakages needed to re-identify a user, ``c * log2(n_u) / I`` (Section V-A).

    The source bounds the number of (external) leakages by ``c * log2(n_u) / HI`` in the
    worst case and ``c * log2(n_u) / PI`` for the model at hand, with ``c`` depending on
    the target success rate (``c = log2(n_u)`` roughly for 80%, refs. [2], [3]).  Returns
    ``inf`` when ``bits <= 0`` (a non-predictive model).

    Raises
    ------
    ValueError
        ``bits`` NaN or infinite (e.g. the PI of a fold made only of outliers under the
        drop rule, which is NaN: no bound can be derived from it).
    """
    n_users = check_int(n_users, "n_users", minimum=2)
    c = check_positive(c, "c")
    bits = check_finite(bits, "bits")
    return float("inf") if not bits > 0 else c * float(np.log2(n_users)) / bits


# ---------------------------------------------------------------------------- attacks
def _check_levels(levels, name, maximum):
    lv = np.atleast_1d(np.asarray(levels))
    if lv.size == 0:
        raise ValueError(f"{name}: expected at least one level, got none")
    out = np.array([check_int(x, name, minimum=1) for x in lv.tolist()], dtype=np.int64)
    return out


def _ranks(better, ties, gen):
    """Rank of the correct candidate: 1 + #strictly better + a uniform share of the ties."""
    return 1 + better + np.floor(gen.random(len(ties)) * (ties + 1)).astype(np.int64)


def success_rate(obs, model, leakages, levels, *, rng, folds=10, user="user", characteristics=None,
                 n_obs=None, chunk=512) -> pd.DataFrame:
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
    (:func:`_rank_one_leakage`; linear in the pairs, no users x users matrix), which
    ranks all 13,141 users of the source in seconds.  With ``M_o > 1`` the scores are
    sums over the leakages and are computed by sparse products, ``chunk`` attacks at a
    time (memory ``chunk x n_u``).  Levels are counted from the cumulative distribution
    of the ranks, so ``levels = 1..n_u`` costs no more than one level.

    Returns
    -------
    DataFrame with columns ``level``, ``success`` and ``random`` (``l / n_u``, a blind guess).
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


def _count_within(ranks: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Number of ``ranks`` that are ``<= l`` for every level ``l`` of ``lv``: one cumulative
    count over the ranks (no levels x attacks array)."""
    top = int(ranks.max()) if len(ranks) else 0
    cum = np.cumsum(np.bincount(ranks, minlength=top + 1))
    return cum[np.minimum(lv, top)]


def _rank_one_leakage(count, n_train, pu, ps, own_pair, sym, n_u, S):
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


def category_prediction(obs, model, levels, *, rng, folds=10, user="user", characteristics=None,
                        n_obs=None, require_equal=True, protect=None) -> pd.DataFrame:
    """Utility: level-l success of predicting the categories of a user's next observation.

    Section VI: "we measure utility as the probability to predict the categories of the
    films watched by the users", with the same cross-validated estimations as the attacks
    but the other term of Bayes' law.  For each held-out observation of user ``u_i`` the
    possible categories (the single characteristic for the first-order model, the
    combination of characteristics for the exhaustive one; grades are marginalised out)
    are ranked by the user's training-fold histogram, ties at random; a level-l success
    is the true category among the first ``l``.  ``protect`` as in
    :func:`perceived_information` (train on protected rows, test on original ones).
    ``rng`` (required, keyword-only; int seed or Generator) draws the folds and the tie breaks.

    Returns
    -------
    DataFrame with ``level``, ``success`` and ``random`` (``l / number of categories``).
    """
    gen = as_generator(rng)
    lv = _check_levels(levels, "levels", None)
    if protect is None:
        rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
        k = check_int(folds, "folds", minimum=2)
        fold = _folds(rec, k, gen)
        cpairs = _category_pairs(rec)
        plan = ((rec, cpairs, test) for test in _fold_tests(fold, k))
    else:
        plan = ((r, _category_pairs(r), np.flatnonzero(te)) for r, _, te in
                _protected_folds(obs, protect, model, user, characteristics, n_obs, folds, gen))
    hits = np.zeros(len(lv), dtype=np.int64)
    total = 0
    for rec, (cid, cu, n_cp_all), test in plan:   # loop over the K folds only
        n_u, C = rec.n_users, rec.n_categories
        # training histogram of the (user, category) pairs: all records minus the fold's
        tcid = cid[test]
        ct = np.bincount(tcid, minlength=len(cu))
        cnt = n_cp_all - ct
        seen = cnt > 0
        nnz = np.bincount(cu[seen], minlength=n_u)
        # every test record of a pair has the same training count v: rank each distinct
        # test pair once (keys user * width + count, guarded against int64 overflow)
        q = np.flatnonzero(ct > 0)
        qu, v = cu[q], cnt[q]
        width = int(cnt.max(initial=0)) + 1
        keys, qkey = _pair_keys(width, (cu[seen], cnt[seen]), (qu, v))
        keys = np.sort(keys)
        right = np.searchsorted(keys, qkey, side="right")
        left = np.searchsorted(keys, qkey, side="left")
        end = np.cumsum(nnz)
        greater = np.zeros(len(cu), dtype=np.int64)
        equal = np.zeros(len(cu), dtype=np.int64)
        greater[q] = np.where(v > 0, end[qu] - right, nnz[qu])
        equal[q] = np.where(v > 0, right - left, C - nnz[qu])
        ranks = _ranks(greater[tcid], equal[tcid] - 1, gen)   # one tie-break per test record
        hits += _count_within(ranks, lv)
        total += len(ranks)
    return pd.DataFrame({"level": lv, "success": hits / total, "random": np.minimum(lv / C, 1.0)})


def _category_pairs(rec: Records):
    """The (user, category) pairs of the records: per-record pair id, per-pair user and
    number of records (the utility model's histogram, Section VI)."""
    (key,) = _pair_keys(rec.n_categories, (rec.user, rec.category))
    cid, n_pairs = _compact(key, _itype(len(key)), ordered=False)
    cu = np.empty(n_pairs, dtype=np.int64)
    cu[cid] = rec.user
    return cid, cu, np.bincount(cid, minlength=n_pairs)


def category_density(obs, model, *, user="user", characteristics=None, n_obs=None) -> np.ndarray:
    """Share of observations in each category, sorted in decreasing order (Figure 5).

    For the exhaustive model a category is a combination of characteristics, for the
    first-order model a single characteristic (of the split observations).
    """
    rec = _records(obs, model, user, characteristics, n_obs, equal=False)
    d = np.bincount(rec.category, minlength=rec.n_categories).astype(float)
    return np.sort(d / d.sum())[::-1]


def largest_step(success: pd.DataFrame, bins: int = 20) -> float:
    """How "stepped" a success-rate curve is (Section V-C, Figure 3).

    ``success`` holds the curve at every level ``1..n_u`` (:func:`success_rate` with
    ``levels = 1..n_u``).  The levels are cut into ``bins`` equal ranges and the share of
    attacks whose correct user falls in each range is computed; a smooth (concave) curve
    has non-increasing shares, whereas groups of similar users would show as a later range
    holding more than the one before it -- a step.  Returns the largest such increase
    (0 when the shares never increase).

    Raises
    ------
    ValueError
        ``success`` without ``level`` / ``success`` columns, empty, with NaN, levels < 1
        or success rates outside ``[0, 1]``; ``bins < 2``.
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


def information_table(observations: dict, n_obs: tuple, folds, *, rng, user="user",
                      outliers="drop") -> pd.DataFrame | dict[str, pd.DataFrame]:
    """Table I of the source: HI and PI, exhaustive and first-order, per granularity.

    ``observations`` maps a granularity name to its long table (or to an already encoded
    ``{"first-order": Records, "exhaustive": Records}`` from :func:`encode` without
    ``n_obs``: each model is encoded once per granularity and :func:`cut` to every
    ``N_o``); ``n_obs = (a, b)`` gives
    the two database sizes: the exhaustive and first-order rows at ``N_o = a``, the
    first-order rows at ``N_o = b`` (the source's 900 and 1,800).  Returns one row per
    (N_o, metric, model) and one column per granularity, plus the outlier fractions
    ``f_o`` of each PI in rows of their own.  With a tuple of ``outliers`` rules, a dict
    ``{rule: table}`` (computed in one pass).  ``rng`` (required, keyword-only; int seed or
    Generator): one generator shared by all the PI fold draws, in the order of the rows.
    """
    gen = as_generator(rng)
    rules = _check_rules(outliers)
    if not isinstance(observations, dict) or not observations:
        raise ValueError(f"observations: expected a non-empty dict {{granularity: long table}}, "
                         f"got {type(observations).__name__} {_fmt(observations)}")
    if isinstance(n_obs, (str, bytes)) or not hasattr(n_obs, "__len__") or len(n_obs) != 2:
        raise ValueError(f"n_obs: expected two database sizes (N_o of the exhaustive rows, larger N_o of the "
                         f"first-order rows), got {_fmt(n_obs)}")
    a, b = (check_int(x, "n_obs", minimum=1) for x in n_obs)
    rows = {r: [] for r in rules}
    plan = [(a, exhaustive()), (a, first_order()), (b, first_order())]
    encoded = {}
    for name, obs in observations.items():  # each model encoded once per granularity, then cut
        for kind, model in ((EXHAUSTIVE, exhaustive()), (FIRST_ORDER, first_order())):
            if isinstance(obs, dict):
                if not isinstance(obs.get(kind), Records) or obs[kind].model.kind != kind:
                    raise ValueError(f"observations: {name!r} holds a dict; expected {{'first-order': Records, "
                                     f"'exhaustive': Records}} from encode(), got keys {sorted(obs)}")
                encoded[name, kind] = obs[kind]
            else:
                encoded[name, kind] = encode(obs, model, user=user)
    for n, model in plan:
        label = "exh." if model.kind == EXHAUSTIVE else "1st-order"
        hi, pi, fo = {}, {r: {} for r in rules}, {}
        for name in observations:
            rec = cut(encoded[name, model.kind], n)
            pairs = _pairs(rec)
            hi[name] = _hi(rec, pairs, user).bits
            p = _perceived(rec, None, folds, gen, user=user, characteristics=None, n_obs=None, floor=None,
                           require_equal=True, protect=None, pairs=pairs)
            for r in rules:
                pi[r][name] = p[r].bits
            fo[name] = p[rules[0]].outlier_fraction
        for r in rules:
            rows[r] += [{"N_o": n, "metric": f"HI ({label})", **hi}, {"N_o": n, "metric": f"PI ({label})", **pi[r]},
                        {"N_o": n, "metric": f"f_o ({label})", **fo}]
    out = {r: pd.DataFrame(rows[r]).set_index(["N_o", "metric"]) for r in rules}
    return out[outliers] if isinstance(outliers, str) else out


def information_curve(obs, model, n_obs_grid, folds, *, rng, user="user", quantiles=(0.1, 0.9),
                      outliers="drop") -> pd.DataFrame | dict[str, pd.DataFrame]:
    """HI and PI against ``N_o`` (Figure 2), with the spread across users.

    For each ``N_o`` in ``n_obs_grid`` the same users (those with at least the largest
    ``N_o``) are cut to their first ``N_o`` observations.  ``obs`` may be a long table or
    :class:`Records` from :func:`encode` (then ``model`` is ignored).  Columns: ``n_obs``, ``HI``,
    ``PI``, ``f_o`` and the per-user quantiles ``HI_q<..>``, ``PI_q<..>``.  With a tuple
    of ``outliers`` rules, a dict ``{rule: curve}`` (computed in one pass).  ``rng``
    (required, keyword-only; int seed or Generator): one generator for every fold draw.
    """
    gen = as_generator(rng)
    rules = _check_rules(outliers)
    grid = [check_int(n, "n_obs_grid", minimum=1) for n in np.atleast_1d(np.asarray(n_obs_grid, dtype=object)).tolist()]
    if not grid:
        raise ValueError("n_obs_grid: expected at least one N_o, got none")
    quantiles = [check_probability(q, "quantiles") for q in np.atleast_1d(np.asarray(quantiles, dtype=object)).tolist()]
    full = cut(obs, max(grid)) if isinstance(obs, Records) else encode(obs, model, user=user, n_obs=max(grid))
    rows = {r: [] for r in rules}
    for n in grid:
        rec = cut(full, n)
        pairs = _pairs(rec)
        hi = _hi(rec, pairs, user)
        pis = _perceived(rec, None, folds, gen, user=user, characteristics=None, n_obs=None, floor=None,
                         require_equal=True, protect=None, pairs=pairs)
        for r in rules:
            pi = pis[r]
            row = {"n_obs": n, "HI": hi.bits, "PI": pi.bits, "f_o": pi.outlier_fraction, "n_users": rec.n_users}
            for q in quantiles:
                row[f"HI_q{int(round(100 * q))}"] = float(np.nanquantile(hi.per_user, q))
                row[f"PI_q{int(round(100 * q))}"] = float(np.nanquantile(pi.per_user, q))
            rows[r].append(row)
    out = {r: pd.DataFrame(rows[r]) for r in rules}
    return out[outliers] if isinstance(outliers, str) else out


# ---------------------------------------------------------------------------- protection
def swap(obs, characteristics, *, rng, user="user") -> pd.DataFrame:
    """Data swapping within users (Section VI, after Reiss [9]).

    For each characteristic ``c`` independently, the values ``o(c)`` are permuted at
    random among the observations of the same user.  Every user's (hence the global)
    first-order histogram of ``(c, o(c))`` is unchanged, while the correlations between
    characteristics within observations are broken.  Rows stay in place (same index,
    same user); only characteristic values move.  ``rng`` (required, keyword-only; int
    seed or Generator) draws the permutations.
    """
    gen = as_generator(rng)
    if not isinstance(obs, pd.DataFrame):
        raise TypeError(f"obs: expected a pandas DataFrame (long table), got {type(obs).__name__}")
    check_nonempty(obs, "obs")
    check_unique_columns(obs, "obs")
    check_columns(obs, [user], "user")
    characteristics = check_columns(obs, characteristics, "characteristics")
    if user in characteristics:
        raise ValueError(f"characteristics: the user column {user!r} cannot be swapped")
    if len(set(characteristics)) < len(characteristics):
        raise ValueError(f"characteristics: duplicated name(s) in {characteristics}")
    check_no_nan(obs, "obs", [user, *characteristics])
    ucode, _ = pd.factorize(obs[user], sort=True)
    counts = np.bincount(ucode)
    out = obs.copy()
    if np.all(ucode[1:] >= ucode[:-1]) and np.all(counts == counts[0]):
        # users contiguous with equal counts: permute the rows of a (users x N_o) view
        for c in characteristics:  # loop over characteristics, not records
            col = obs[c].to_numpy()
            out[c] = gen.permuted(col.reshape(len(counts), counts[0]), axis=1).ravel()
        return out
    base = np.argsort(ucode, kind="stable")
    for c in characteristics:  # loop over characteristics, not records
        perm = _shuffle_within(ucode, gen)
        col = obs[c].to_numpy()
        new = col.copy()
        new[base] = col[perm]
        out[c] = new
    return out


# ---------------------------------------------------------------------------- ratings
def _check_ratings(values: np.ndarray, name: str) -> None:
    """Ratings within :data:`RATING_RANGE` (a value outside was once clipped silently)."""
    lo, hi = RATING_RANGE
    bad = (values < lo) | (values > hi)
    if bad.any():
        shown = sorted(set(values[bad].tolist()))[:5]
        raise ValueError(f"{name}: expected ratings in [{lo:g}, {hi:g}] (half stars from 0.5 to 5), got "
                         f"{int(bad.sum())} value(s) outside, e.g. {shown}; rescale or drop them first")


def _grade(rating: np.ndarray, granularity: str) -> np.ndarray:
    if granularity == "no-grade":
        return np.ones(len(rating), dtype=np.int8)
    if granularity == "like-dislike":
        return np.where(rating >= 4, 2, 1).astype(np.int8)   # like = grade >= 4 (Section IV)
    return np.clip(np.floor(rating), 1, 5).astype(np.int8)   # half stars rounded down, 0.5 -> 1


def rating_observations(ratings, granularity, *, categories=None, user="user", genres="genres",
                        rating="rating", sep="|") -> pd.DataFrame:
    """The source's reduction of ratings to observations (Section IV).

    Each rated movie becomes one row: the user and one column per category, holding the
    grade when the movie belongs to the category and 0 otherwise.  Movie identity and
    date are dropped.  Grades by ``granularity``:

    * ``"no-grade"``: 1 for every category of the movie (profiles depend only on types);
    * ``"like-dislike"``: 2 (like) when ``rating >= 4``, else 1 (dislike);
    * ``"5-star"``: ``floor(rating)`` with 0.5 raised to 1, so half stars are rounded
      down (0.5 -> 1, 3.5 -> 3, 4.5 -> 4) and "star >= 4" is exactly "like".

    Rows keep the order of ``ratings`` (sort by time first to cut "the first N_o").

    Raises
    ------
    ValueError
        A rating outside ``[0.5, 5]`` (:data:`RATING_RANGE`), NaN values, an empty table,
        duplicated or missing columns, an empty ``genres`` string (a movie with no
        category), unknown genres when ``categories`` is given.
    TypeError
        Non-numeric ratings or non-string genres.
    """
    if not isinstance(ratings, pd.DataFrame):
        raise TypeError(f"ratings: expected a pandas DataFrame, got {type(ratings).__name__}")
    check_in(granularity, "granularity", GRANULARITIES)
    check_unique_columns(ratings, "ratings")
    check_columns(ratings, [user, genres, rating], "ratings")
    check_nonempty(ratings, "ratings")
    check_no_nan(ratings, "ratings", [user, genres, rating])
    rv = ratings[rating]
    if not (pd.api.types.is_numeric_dtype(rv) and not pd.api.types.is_bool_dtype(rv)):
        raise TypeError(f"rating: expected numeric ratings in column {rating!r}, got dtype {rv.dtype}")
    _check_ratings(rv.to_numpy(), "rating")  # native dtype: no float copy held
    gcode, gvals = pd.factorize(ratings[genres])
    nonstr = [g for g in gvals if not isinstance(g, str)]  # loop over distinct strings, not records
    if nonstr:
        raise TypeError(f"genres: expected {sep!r}-separated strings in column {genres!r}, got e.g. "
                        f"{type(nonstr[0]).__name__} {_fmt(nonstr[0])}")
    dummies = pd.Series(gvals, dtype=object).str.get_dummies(sep=sep)  # one row per distinct string
    if categories is None:
        categories = list(dummies.columns)
    else:
        categories = list(categories)
        if len(set(categories)) < len(categories):
            raise ValueError(f"categories: duplicated name(s) {sorted({c for c in categories if categories.count(c) > 1})}")
        unknown = sorted(set(dummies.columns) - set(categories))
        if unknown:
            raise ValueError(f"ratings: genre(s) {unknown} are not among the categories {categories}")
        dummies = dummies.reindex(columns=categories, fill_value=0)
    if user in categories:
        raise ValueError(f"categories: a category is named like the user column {user!r}; pass another user= name")
    none = np.flatnonzero(dummies.to_numpy().sum(axis=1) == 0)  # per distinct string
    if len(none):
        raise ValueError(f"genres: {_fmt(gvals[none[0]])} names no category (rows "
                         f"{int(np.isin(gcode, none).sum())}); drop those ratings or give them a category")
    ind = dummies.to_numpy(dtype=np.int8)                  # distinct strings x categories
    grade = _grade(ratings[rating].to_numpy(dtype=float), granularity)
    gcode = np.asarray(gcode)
    # one contiguous column per category (Fortran order): column scans downstream read
    # only their own column, never the whole table
    wide = np.empty((len(gcode), len(categories)), dtype=np.int8, order="F")
    for j in range(len(categories)):  # loop over categories, not records
        np.multiply(ind[:, j][gcode], grade, out=wide[:, j])
    out = pd.DataFrame(wide, columns=categories, index=ratings.index, copy=False)
    out.insert(0, user, ratings[user].to_numpy())
    return out
