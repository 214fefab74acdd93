"""Records of a model (private): the models of ``g(o|u)`` (Section II-C) and the encoding of
a long table of observations into integer records grouped by user."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Hashable

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import (
    _fmt,
    check_columns,
    check_in,
    check_int,
    check_no_nan,
    check_nonempty,
    check_unique_columns,
)
from ._codes import (_code_plan, _combine, _compact, _factorize_sorted, _itype, _pair_ids, _plan_column,
                     _row_codes)

#: The two arguments of every measure on observations (a shared docstring piece, ``{{obs_model}}``).
OBS_MODEL_DOC = """
obs : DataFrame or Records
    The long table, or :class:`Records` from :func:`encode_records`.
model : Model, optional
    :func:`first_order` or :func:`exhaustive` (required for a table, ignored for Records).
"""

#: The Raises section of the functions that encode a table as :func:`encode_records` does.
RAISES_AS_ENCODE_DOC = """
Raises
------
ValueError, TypeError
    As :func:`encode_records`.
"""
#: The levels and the cross-validation of the level-l success rates (attacks and utility).
LEVELS_CV_DOC = """
levels : int or sequence of int
    The levels ``l >= 1`` to report.
rng : int or numpy.random.Generator
    Seed or generator (required).
folds : int, default 10
    ``K``, the number of cross-validation folds.
"""

#: Name of the first-order model (one histogram per characteristic, Section II-B).
FIRST_ORDER = "first-order"
#: Name of the exhaustive model (one histogram per combination of characteristics).
EXHAUSTIVE = "exhaustive"


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

    Examples
    --------
    >>> from privlib.reident import Model
    >>> Model("exhaustive", absent=0).kind
    'exhaustive'
    """

    kind: str
    absent: object = 0

    def __post_init__(self):
        check_in(self.kind, "kind", (FIRST_ORDER, EXHAUSTIVE))

    def __str__(self) -> str:  # pragma: no cover - display only
        return self.kind


def first_order(*, absent: object = 0) -> Model:
    """First-order model: a histogram over the pairs ``(characteristic, value)``.

    ``g~_1(o(c)|u_i) = (1/N_o^i) sum_{o' in D_i} [o'(c) = o(c)]`` (Section II-C, first
    equation), applied to the simplified observations ``(c, o(c))`` obtained by splitting
    each row into one observation per characteristic whose value is not ``absent``.

    Parameters
    ----------
    absent : object, default 0
        The value meaning "characteristic not part of the observation" (skipped).

    Returns
    -------
    Model
        ``Model("first-order", absent)``.

    Examples
    --------
    >>> from privlib.reident import first_order
    >>> first_order().kind
    'first-order'
    """
    return Model(FIRST_ORDER, absent)


def exhaustive(*, absent: object = 0) -> Model:
    """Exhaustive model: one histogram over whole observations (Section II-C, ``g~_ex``).

    Parameters
    ----------
    absent : object, default 0
        The value meaning "characteristic not part of the observation"; it defines the
        observation's categories (:func:`category_prediction`).

    Returns
    -------
    Model
        ``Model("exhaustive", absent)``.

    Examples
    --------
    >>> from privlib.reident import exhaustive
    >>> exhaustive(absent=-1).absent
    -1
    """
    return Model(EXHAUSTIVE, absent)


def _check_model(model: object) -> Model:
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

    Attributes
    ----------
    user, symbol, category : ndarray of int
        Per record: user index, histogram bin and category combination.
    users : ndarray
        The user identifiers, in the order of ``obs``.
    n_symbols, n_categories : int
        Number of histogram bins and of category combinations.
    counts : ndarray of int
        Records per user, ``N_o^i``.
    model : Model
        The model that encoded the observations.
    row : ndarray of int or None
        Position in ``obs`` of each record's row.
    n_empty : int
        Users of ``obs`` with no record of the model.
    n_users : int
        Number of users ``n_u`` (property).
    n_obs : int
        ``N_o`` when every user has the same number of records, else -1 (property).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import encode_records, exhaustive
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "x": ["a", "b", "a", "a"]})
    >>> rec = encode_records(obs, model=exhaustive())
    >>> rec.user.tolist(), rec.symbol.tolist(), rec.n_users, rec.n_obs
    ([0, 0, 1, 1], [0, 1, 0, 0], 2, 2)
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
        """Number of users ``n_u``."""
        return len(self.users)

    @property
    def n_obs(self) -> int:
        """``N_o`` when every user has the same number of records, else -1."""
        return int(self.counts[0]) if np.all(self.counts == self.counts[0]) else -1

    def _user_symbol_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The (user, symbol) pairs: per-record pair id, per-pair user, symbol and count.

        Computed once per Records and held read-only (HI, PI and the attacks on the same
        database share them); left out when the Records are pickled."""
        memo = self.__dict__.get("_pairs_memo")
        if memo is None:
            # pair ids: any fixed order; keys guarded against int64 overflow
            memo = _pair_ids(self.user, self.symbol, self.n_symbols, _itype(len(self.user)))
            for a in memo:
                a.setflags(write=False)
            object.__setattr__(self, "_pairs_memo", memo)  # a cache of this object's own arrays
        return memo

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_pairs_memo"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)



def _prepare(obs: object, user: Hashable, characteristics: Sequence | None) -> list:
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


def encode_records(obs: pd.DataFrame, *, model: Model, user: Hashable = "user",
                   characteristics: Sequence[Hashable] | None = None, n_obs: int | None = None) -> Records:
    """Turn the long table ``obs`` into the records of ``model``.

    Parameters
    ----------
    obs : DataFrame
        One row per observation (a user column and characteristic columns).
    model : Model
        :func:`first_order` or :func:`exhaustive`.
    user : hashable, default "user"
        Name of the user column.
    characteristics : sequence of column names, optional
        The characteristic columns (default: every other column).
    n_obs : int, optional
        Keep only the users with at least ``n_obs`` records of the model and cut each to
        its first ``n_obs`` (in the order of ``obs``): the source's reduction "removed all
        the users with less than 1000 observations and kept this same amount of
        observations from each" (Section IV).  Without it, every user must already have
        the same number of records (the source assumes ``N_o^i = N_o``, Section III-A).
        Without it, users with no record at all (first-order model, every characteristic
        ``absent``) are left out and counted in ``Records.n_empty``; the HI / PI / attack
        functions then refuse the database unless ``require_equal=False``.

    Returns
    -------
    Records
        The records of ``model``, grouped by user.

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
    columns are scanned once, whatever the model (:func:`encode_models` shares that scan
    between several models).
    Combined integer codes (user x symbol, column codes in mixed radix) are guarded
    against int64 overflow: integer columns whose range exceeds ``2**31`` are factorized
    rather than shifted, and past the int64 bound the pairs are coded by
    ``np.unique(axis=0)``, which keeps the same order.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import encode_records, first_order
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "A": [1, 0, 2, 2], "B": [3, 3, 0, 3]})
    >>> rec = encode_records(obs, model=first_order())     # one record per non-zero value
    >>> rec.counts.tolist(), rec.n_symbols
    ([3, 3], 3)
    >>> encode_records(obs, model=first_order(), n_obs=2).counts.tolist()
    [2, 2]
    """
    model = _check_model(model)
    return _encode(_patterns(obs, user, characteristics), obs, model, n_obs)


def encode_models(obs: pd.DataFrame, *, models: Mapping[str, Model], user: Hashable = "user",
                  characteristics: Sequence[Hashable] | None = None,
                  n_obs: int | Mapping[str, int] | None = None) -> dict[str, Records]:
    """The records of several models of one long table, its rows coded once.

    Same records as :func:`encode_records` called once per model, but the rows are coded
    as patterns (the costly scan of the characteristic columns) only once.

    Parameters
    ----------
    obs : DataFrame
        One row per observation (a user column and characteristic columns).
    models : mapping of str to Model
        The models, by name (e.g. ``{"exhaustive": exhaustive(), "first-order":
        first_order()}``).
    user, characteristics : as in :func:`encode_records`.
    n_obs : int or mapping of str to int, optional
        One ``N_o`` for every model, or one per model name (missing names: no cut).

    Returns
    -------
    dict of str to Records
        ``{name: encode_records(obs, model=models[name], n_obs=...)}``, in the order of
        ``models``.

    Raises
    ------
    ValueError, TypeError
        As :func:`encode_records`; an empty ``models`` mapping.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import encode_models, exhaustive, first_order
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "A": [1, 0, 2, 2], "B": [3, 3, 0, 3]})
    >>> enc = encode_models(obs, models={"exh": exhaustive(), "fo": first_order()}, n_obs={"fo": 2})
    >>> {k: r.counts.tolist() for k, r in enc.items()}
    {'exh': [2, 2], 'fo': [2, 2]}
    """
    if not isinstance(models, Mapping) or not models:
        raise ValueError(f"models: expected a non-empty mapping {{name: first_order() or exhaustive()}}, "
                         f"got {type(models).__name__} {_fmt(models)}")
    checked = {name: _check_model(m) for name, m in models.items()}
    sizes = n_obs if isinstance(n_obs, Mapping) else {name: n_obs for name in checked}
    unknown = sorted(map(str, set(sizes) - set(checked)))
    if unknown:
        raise ValueError(f"n_obs: names {unknown} are not among the models {sorted(map(str, checked))}")
    pt = _patterns(obs, user, characteristics)
    return {name: _encode(pt, obs, m, sizes.get(name)) for name, m in checked.items()}


def _patterns(obs: pd.DataFrame, user: Hashable, characteristics: Sequence | None) -> tuple:
    """The model-free part of the encoding: checks, user codes and the row patterns.

    Every row is coded once as its *pattern* (the combination of its characteristic
    values: the exhaustive model's bin); both models are then read off the table of the
    distinct patterns (a few thousand rows), so no per-record work touches the columns."""
    chars = _prepare(obs, user, characteristics)
    ucode, users = _factorize_sorted(obs[user])
    plan, cards = _code_plan(obs, chars)
    pattern, n_pat = _row_codes(plan, cards, len(ucode))
    rep = np.empty(n_pat, dtype=np.int64)
    rep[pattern] = np.arange(len(pattern))               # one row of each pattern
    pat_codes = np.stack([np.asarray(_plan_column((how, v[rep], lo)), dtype=np.int64)
                          for how, v, lo in plan], axis=1)                       # n_pat x n_char
    return chars, ucode, users, cards, pattern, n_pat, rep, pat_codes


def _encode(pt: tuple, obs: pd.DataFrame, model: Model, n_obs: int | None) -> Records:
    """:func:`encode_records` of one model from the :func:`_patterns` of ``obs``."""
    chars, ucode, users, cards, pattern, n_pat, rep, pat_codes = pt
    n_char = len(chars)
    pat_present = np.stack([obs[c].to_numpy()[rep] != model.absent for c in chars], axis=1)
    grouped = len(ucode) < 2 or bool(np.all(ucode[1:] >= ucode[:-1]))
    if model.kind == EXHAUSTIVE and n_obs is not None and grouped:
        return _exhaustive_cut(pt, model, pat_present, check_int(n_obs, "n_obs", minimum=1))
    if model.kind == EXHAUSTIVE:
        symbol = pattern
        pat_cat, _ = _combine(list(pat_present.T), [2] * n_char, n_pat)
        category = pat_cat[pattern]
        rec_user = ucode
        rec_row = np.arange(len(ucode), dtype=np.int64)
    elif n_obs is not None and grouped:
        return _first_order_cut(pt, model, pat_present, check_int(n_obs, "n_obs", minimum=1))
    else:
        # one record per (row, present characteristic), row-major so that records stay in
        # the order of obs: the present characteristics of each pattern, expanded row by row
        pp, pc_ = np.nonzero(pat_present)                 # entries sorted by (pattern, characteristic)
        width = max(cards)
        e_sym = pc_.astype(np.int64) * width + pat_codes[pp, pc_]
        pat_n = np.bincount(pp, minlength=n_pat)
        pat_start = np.concatenate([[0], np.cumsum(pat_n)[:-1]])
        rows = np.arange(len(ucode))
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
    n_empty = 0
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
        _check_kept(keep_user, n_obs, model)
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
    return _finish(rec_user, symbol, category, rec_row, users, counts, model, n_empty)


def _check_kept(keep_user: np.ndarray, n_obs: int, model: Model) -> None:
    if keep_user.sum() < 2:
        raise ValueError(
            f"n_obs: only {int(keep_user.sum())} user(s) have at least {n_obs} {model.kind} observations; "
            "expected at least two users")


def _finish(rec_user, symbol, category, rec_row, users, counts, model, n_empty, n_codes=None) -> Records:
    """Records with compact symbol and category codes; int32 where it fits.  ``n_codes``: the
    numbers of symbols and categories when ``symbol`` and ``category`` are compact codes already."""
    if len(users) < 2:
        raise ValueError(f"obs: expected at least two users, got {len(users)}")
    it = _itype(max(len(rec_user), len(users)))
    if n_codes is None:
        symbol, n_sym = _compact(symbol, it)
        category, n_cat = _compact(category, it)
    else:
        n_sym, n_cat = n_codes
    return Records(rec_user.astype(it, copy=False), symbol, category, users, n_sym, n_cat, counts, model,
                   rec_row.astype(it, copy=False), n_empty)


def _exhaustive_cut(pt: tuple, model: Model, pat_present: np.ndarray, n_obs: int) -> Records:
    """Exhaustive records cut to ``n_obs`` per user, rows grouped by user: the first
    ``n_obs`` rows of every user having at least ``n_obs`` are taken directly (same records
    as coding every row and cutting afterwards)."""
    chars, ucode, users, cards, pattern, n_pat, rep, pat_codes = pt
    rows_per_user = np.bincount(ucode, minlength=len(users))
    keep_user = rows_per_user >= n_obs
    _check_kept(keep_user, n_obs, model)
    first = np.concatenate([[0], np.cumsum(rows_per_user)[:-1]])
    rec_row = (first[keep_user][:, None] + np.arange(n_obs)).ravel()
    pat_cat, _ = _combine(list(pat_present.T), [2] * len(chars), n_pat)
    symbol = pattern[rec_row]
    category = pat_cat[symbol]
    kept = np.asarray(users)[keep_user]
    rec_user = np.repeat(np.arange(len(kept), dtype=np.int64), n_obs)
    return _finish(rec_user, symbol, category, rec_row, kept, np.full(len(kept), n_obs, dtype=np.int64), model, 0)


def _first_order_cut(pt: tuple, model: Model, pat_present: np.ndarray, n_obs: int) -> Records:
    """First-order records cut to ``n_obs`` per user, rows grouped by user: only the records
    kept are expanded (the first ``n_obs`` of every user having at least ``n_obs``), so the
    cut costs no pass over the full record table.  Same records as expanding every row and
    cutting afterwards."""
    chars, ucode, users, cards, pattern, n_pat, rep, pat_codes = pt
    pp, pc_ = np.nonzero(pat_present)                     # entries sorted by (pattern, characteristic)
    width = max(cards)
    e_sym = pc_.astype(np.int64) * width + pat_codes[pp, pc_]
    pat_n = np.bincount(pp, minlength=n_pat)
    pat_start = np.concatenate([[0], np.cumsum(pat_n)[:-1]])
    nr_all = pat_n[pattern]                                # records of each row
    cs = np.concatenate([[0], np.cumsum(nr_all)])          # records before each row
    rows_per_user = np.bincount(ucode, minlength=len(users))
    first = np.concatenate([[0], np.cumsum(rows_per_user)[:-1]])
    total = cs[first + rows_per_user] - cs[first]           # records of each user
    keep_user = total >= n_obs
    _check_kept(keep_user, n_obs, model)
    take = np.minimum(nr_all, n_obs - (cs[:-1] - cs[first][ucode]))   # records kept of each row
    take[~keep_user[ucode]] = 0
    rows = np.flatnonzero(take > 0)
    nr = take[rows]
    n_rec = int(nr.sum())
    it = _itype(max(n_rec, len(ucode), int(e_sym.max(initial=0)) + 1))
    ent = _itype(max(n_rec, len(e_sym)) + 1)
    entry = np.repeat((pat_start[pattern[rows]] - (np.cumsum(nr) - nr)).astype(ent), nr)
    entry += np.arange(len(entry), dtype=ent)
    rec_row = np.repeat(rows.astype(it), nr)
    n_keep = int(keep_user.sum())
    rec_user = np.repeat(np.arange(n_keep, dtype=it), n_obs)   # n_obs records of each kept user, in order
    # the compact codes of the symbols and categories the kept records use, read off the entries (a
    # few per pattern) instead of compacting the record arrays: a kept row uses the first `take`
    # entries of its pattern (all of them but in the last row of a user)
    full = take == nr_all
    reach = np.where(np.bincount(pattern[full & (take > 0)], minlength=n_pat) > 0, pat_n, 0)
    part = rows[~full[rows]]
    np.maximum.at(reach, pattern[part], take[part])
    used = np.arange(len(e_sym)) - np.repeat(pat_start, pat_n) < np.repeat(reach, pat_n)
    ft = _itype(max(n_rec, n_keep))                                  # the dtype of _finish's codes
    sym_code, n_sym = _entry_codes(e_sym, used, ft)
    cat_code, n_cat = _entry_codes(pc_.astype(np.int64), used, ft)
    symbol, category = sym_code[entry], cat_code[entry]
    del entry
    kept = np.asarray(users)[keep_user]
    return _finish(rec_user, symbol, category, rec_row, kept, np.full(len(kept), n_obs, dtype=np.int64),
                   model, 0, n_codes=(n_sym, n_cat))


def _entry_codes(values: np.ndarray, used: np.ndarray, dtype) -> tuple[np.ndarray, int]:
    """Code of every entry: the rank of its value among the values of the ``used`` entries (the
    codes :func:`_compact` gives the records that use them), and the number of those values.

    Examples
    --------
    >>> import numpy as np
    >>> _entry_codes(np.array([7, 3, 9, 3]), np.array([True, True, False, True]), np.int32)
    (array([1, 0, 2, 0], dtype=int32), 2)
    """
    uniq = np.unique(values[used])
    return np.searchsorted(uniq, values).astype(dtype), max(int(uniq.size), 1)


def cut(records: Records, *, n_obs: int) -> Records:
    """The first ``n_obs`` records of every user that has at least ``n_obs`` (Section IV).

    Same records and codes as ``encode_records(obs, model=model, n_obs=n_obs)``, without
    encoding the table again: encode once without ``n_obs`` and cut to every database size
    needed.

    Parameters
    ----------
    records : Records
        From :func:`encode_records` (typically without ``n_obs``).
    n_obs : int
        The database size ``N_o`` (records per user).

    Returns
    -------
    Records
        ``records`` itself when every user already has exactly ``n_obs`` records.

    Raises
    ------
    TypeError
        ``records`` not a :class:`Records`.
    ValueError
        ``n_obs`` not a positive integer, or fewer than two users with ``n_obs`` records.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import cut, encode_records, exhaustive
    >>> obs = pd.DataFrame({"user": [1, 1, 1, 2, 2, 2], "x": list("abcabb")})
    >>> cut(encode_records(obs, model=exhaustive()), n_obs=2).symbol.tolist()
    [0, 1, 0, 1]
    """
    if not isinstance(records, Records):
        raise TypeError(f"records: expected Records from encode_records(), got {type(records).__name__}")
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
    n_u, c = len(counts), int(counts[0])
    if keep_user.all() and np.all(counts == c) and len(rec.user) == n_u * c and _grouped(rec.user):
        # every user holds c >= n_obs records, one block each: its first n_obs are the block's first
        # columns (the same records, in the same order, as the mask below)
        def take(a):
            return a.reshape(n_u, c)[:, :n_obs].ravel()
        user, sym, cat = take(rec.user), take(rec.symbol), take(rec.category)
        row = None if rec.row is None else take(rec.row)
    else:
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(it)
        rank = np.arange(len(rec.user), dtype=it)
        rank -= starts[rec.user]
        keep = keep_user[rec.user]
        keep &= rank < n_obs
        del rank
        newcode = (np.cumsum(keep_user) - 1).astype(it)
        user, sym, cat = newcode[rec.user[keep]], rec.symbol[keep], rec.category[keep]
        row = None if rec.row is None else rec.row[keep]
    symbol, n_sym = _compact(sym, rec.symbol.dtype)
    category, n_cat = _compact(cat, rec.category.dtype)
    return Records(user, symbol, category, np.asarray(rec.users)[keep_user], n_sym, n_cat,
                   np.full(int(keep_user.sum()), n_obs, dtype=np.int64), rec.model, row, 0)


def _grouped(user: np.ndarray) -> bool:
    """Whether the records are in the order of their users (codes non-decreasing)."""
    return len(user) < 2 or bool(np.all(user[1:] >= user[:-1]))


def _records(obs: pd.DataFrame | Records, model: Model | None, user: Hashable, characteristics: Sequence | None,
             n_obs: int | None, *, equal: bool = True) -> Records:
    """``obs`` itself when already encoded, else its :func:`encode_records`; with ``equal``,
    refuse unequal ``N_o^i`` (Section III-A)."""
    if isinstance(obs, Records) and (n_obs is not None or characteristics is not None):
        bad = "n_obs" if n_obs is not None else "characteristics"
        raise ValueError(f"{bad}: obs is already encoded (Records); pass {bad}= to encode_records() instead, "
                         f"got {bad}={_fmt(n_obs if bad == 'n_obs' else characteristics)}")
    rec = obs if isinstance(obs, Records) else encode_records(obs, model=model, user=user,
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


@shared_doc(raises_as_encode=RAISES_AS_ENCODE_DOC)
def observation_counts(obs: pd.DataFrame, *, model: Model, user: Hashable = "user",
                       characteristics: Sequence[Hashable] | None = None) -> pd.Series:
    """Number of records of ``model`` per user (``N_o^i``), indexed by user.

    Every user of ``obs`` is listed, including those with no record of the model (0: a
    user whose rows are all ``absent`` has no first-order record; :func:`encode_records`
    leaves such users out of the database).

    Parameters
    ----------
    obs : DataFrame
        The long table (a user column and characteristic columns).
    model : Model
        :func:`first_order` or :func:`exhaustive`.
    user, characteristics : as in :func:`encode_records`.

    Returns
    -------
    Series
        ``n_obs`` per user, indexed by user (sorted).

    {{raises_as_encode}}

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import first_order, observation_counts
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 3], "A": [1, 0, 2, 0], "B": [3, 3, 0, 0]})
    >>> observation_counts(obs, model=first_order()).tolist()
    [3, 1, 0]
    """
    rec = encode_records(obs, model=model, user=user, characteristics=characteristics)
    out = pd.Series(rec.counts, index=pd.Index(rec.users, name=user), name="n_obs")
    every = pd.Index(pd.unique(obs[user]), name=user).sort_values()  # sort: unique keys
    if len(every) != len(out):
        out = out.reindex(every, fill_value=0)
    return out


