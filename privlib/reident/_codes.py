"""Integer coding of the observations (private): dense codes, mixed-radix row codes and
overflow-safe pair keys, shared by the encoding and the estimators of :mod:`privlib.reident`."""
from __future__ import annotations

import numpy as np
import pandas as pd

#: Largest value a combined integer key ``a * width + b`` may take (int64); past it the pairs
#: are coded by a safe grouping instead (:func:`_pair_keys`).  A module constant so that the
#: tests can lower it and exercise the fallback on small data.
_KEY_LIMIT = 2**63 - 1
#: Integer columns whose range ``max - min`` is below this are coded by a shift (no hashing);
#: wider ranges (e.g. values near the int64 limits) are factorized, so codes stay small.
_SHIFT_RANGE = 1 << 31


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


def _pair_ids(a: np.ndarray, b: np.ndarray, width: int, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                        np.ndarray]:
    """The distinct pairs ``(a[r], b[r])``, ``0 <= b < width``: per row its pair id (``dtype``), per
    pair its ``a``, its ``b`` and its number of rows (float64).

    The ids are those of ``_compact(_pair_keys(width, (a, b))[0], dtype, ordered=False)``.  When
    the keys ``a * width + b`` are coded by counting (a small non-negative range), the pairs are
    read off the count of every key -- no scatter of the rows into the pairs, no second count.

    Examples
    --------
    >>> import numpy as np
    >>> pid, pa, pb, pc = _pair_ids(np.array([0, 0, 1, 0]), np.array([2, 1, 2, 2]), 3, np.int32)
    >>> pid.tolist(), pa.tolist(), pb.tolist(), pc.tolist()
    ([1, 0, 2, 1], [0, 0, 1], [1, 2, 2], [1.0, 2.0, 1.0])
    """
    (key,) = _pair_keys(width, (a, b))
    top = int(np.max(a)) if len(a) else 0
    product = (top + 1) * int(width) <= _KEY_LIMIT
    if product and len(key):
        lo, hi = int(key.min()), int(key.max())
        if lo >= 0 and hi < max(4 * len(key), 1 << 20) and hi < 1 << 25:    # _compact's counting path
            count = np.bincount(key, minlength=hi + 1)
            used = count > 0
            if used.all():
                pid = key.astype(dtype, copy=False)
            else:
                pid = (np.cumsum(used) - 1).astype(dtype)[key]
            keys = np.flatnonzero(used)
            return pid, keys // int(width), keys % int(width), count[used].astype(np.float64)
    pid, n_pairs = _compact(key, dtype, ordered=False)
    pa = np.empty(n_pairs, dtype=np.int64)
    pb = np.empty(n_pairs, dtype=np.int64)
    pa[pid] = a
    pb[pid] = b
    return pid, pa, pb, np.bincount(pid, minlength=n_pairs).astype(np.float64)


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

    Examples
    --------
    Below the bound the keys are the products; the safe codes keep their order:

    >>> import numpy as np
    >>> a, b = np.array([0, 5, 2, 5]), np.array([3, 1, 0, 1])
    >>> _pair_keys(4, (a, b))[0].tolist() == (a * 4 + b).tolist()
    True
    >>> codes, n = _pair_codes(a, b)
    >>> n, codes.tolist()
    (3, [0, 2, 1, 2])
    """
    top = max((int(np.max(a)) for a, _ in pairs if len(a)), default=0)
    if (top + 1) * int(width) <= _KEY_LIMIT:
        return [np.asarray(a, np.int64) * int(width) + np.asarray(b, np.int64) for a, b in pairs]
    codes, _ = _pair_codes(np.concatenate([np.asarray(a, np.int64) for a, _ in pairs]),
                           np.concatenate([np.asarray(b, np.int64) for _, b in pairs]))
    cuts = np.cumsum([len(a) for a, _ in pairs])[:-1]
    return np.split(codes, cuts)

