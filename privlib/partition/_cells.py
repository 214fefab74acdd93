"""The records as distinct cells: (QI codes, SA value) rows with their multiplicities.

Mondrian and the DP kd-tree read the records only through counts -- per node, per code of a QI,
per SA value -- so they run on the distinct ``(QI codes, SA)`` rows weighted by their
multiplicities and give exactly the results they give on the records.  A census table of
10^7 records over a few coded QIs has a few hundred thousand distinct rows.

The QI codes are read one column at a time (:func:`_qi_box`, with the checks and messages of
:func:`.qi_codes` and :func:`.root_box`) and kept 0-based in the smallest unsigned dtype of their
width, so that no ``n x d`` int64 matrix is built: the working memory of a 10^7-record table
stays well below the table's own size.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_columns
from ._encoding import _INT_LIMIT, _sensitive, qi_codes, root_box

#: Largest dense count table (entries) :func:`_cells` allocates, beyond the number of records.
_DENSE_CELLS = 1 << 22


def _small_uint(width):
    for dt in (np.uint8, np.uint16, np.uint32):
        if width <= np.iinfo(dt).max + 1:
            return dt
    return np.int64


def _qi_box(df, qi, domain):
    """``(zcols, dlo, dhi)``: each QI's 0-based codes (``code - dlo``, compact dtype) and the root box.

    The checks (and messages) of ``root_box(qi_codes(df, qi), qi, domain=domain)``: the frame's
    columns and missing values first (on the rows with a missing QI, if any: the same message),
    the dtypes, then each column's values and bounds in ``qi`` order.  ``df`` has passed
    :func:`._check_common`.
    """
    qi = list(qi)
    nan_rows = np.zeros(len(df), bool)             # column by column: no copy of the QI table
    for c in qi:
        if c in df.columns:
            nan_rows |= df[c].isna().to_numpy()
    qi_codes(df.loc[nan_rows] if nan_rows.any() else df.iloc[:0], qi)   # names, missing values, dtypes
    if domain is not None:
        root_box(np.zeros((0, len(qi)), np.int64), qi, domain=domain)   # the domain's own form and widths
    zcols, lo, hi = [], [], []
    for c in qi:
        dom = None if domain is None else {c: domain[c]}
        x = df[c].to_numpy() if _native_int(df[c]) else None
        if x is not None and x.size:
            # integer codes as they are: the checks on the column's extremes (the same bounds and
            # messages), the 0-based codes subtracted chunk by chunk (no int64 copy of the column)
            a, b = root_box(np.array([[int(x.min())], [int(x.max())]], dtype=np.int64), [c], domain=dom)
            zcols.append(_offset(x, int(a[0]), _small_uint(int(b[0]) - int(a[0]) + 1)))
        else:
            x = qi_codes(df, [c])
            a, b = root_box(x, [c], domain=dom)
            zcols.append((x[:, 0] - a[0]).astype(_small_uint(int(b[0]) - int(a[0]) + 1)))
        lo.append(a[0])
        hi.append(b[0])
        del x
    return zcols, np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)


def _native_int(col):
    """A column of plain integers that :func:`.qi_codes` would take as they are (int8 .. int64,
    uint8 .. uint32: no wrap-around of uint64, no categorical, no missing values possible)."""
    return isinstance(col.dtype, np.dtype) and col.dtype.kind in "iu" and col.dtype.itemsize <= (8 if col.dtype.kind == "i" else 4)


#: Rows per chunk of the code arithmetic on a whole column (bounded int64 temporaries).
_CHUNK = 1 << 22


def _offset(x, a, dtype):
    """``(x - a).astype(dtype)``, chunk by chunk; ``x`` itself when that is the same array."""
    if a == 0 and x.dtype == dtype:
        x = x.view()
        x.flags.writeable = False                 # the caller's column: read only
        return x
    out = np.empty(x.size, dtype=dtype)
    for i in range(0, x.size, _CHUNK):
        out[i:i + _CHUNK] = x[i:i + _CHUNK].astype(np.int64) - a
    return out


def _count_codes(s, S, weights=None):
    """``np.bincount(s, weights, minlength=S)`` as floats, chunk by chunk: no int64 copy of a
    compact ``s`` (10^8 one-byte codes: 0.8 GB)."""
    out = np.zeros(S)
    for a in range(0, s.size, _CHUNK):
        out += np.bincount(s[a:a + _CHUNK], weights=None if weights is None else weights[a:a + _CHUNK], minlength=S)
    return out


def _sensitive_codes(df, sa, sa_values=None):
    """``(values, codes)`` of the SA column as :func:`._encoding._sensitive` returns them, reading
    the column once (``pandas.factorize``) and checking its distinct values only: the same
    values, codes and errors, without looking every record's value up in a hash table of
    Python objects (10^7 string records: seconds and hundreds of MB saved)."""
    check_columns(df, [sa], "sa")
    col = df[sa]
    if isinstance(col.dtype, np.dtype) and col.dtype.kind == "u" and col.dtype.itemsize <= 2 and len(col):
        # small unsigned codes: the distinct values from a count table, the records through a lookup
        x = col.to_numpy()
        present = np.zeros(1 << (8 * col.dtype.itemsize), dtype=bool)
        for a in range(0, x.size, _CHUNK):          # chunk by chunk: no int64 copy of the column
            present[:int(x[a:a + _CHUNK].max()) + 1] |= np.bincount(x[a:a + _CHUNK]) > 0
        uniq = np.flatnonzero(present).astype(x.dtype)
        values, idx = _sensitive(pd.DataFrame({sa: uniq}), sa, sa_values)
        lut = np.zeros(int(uniq[-1]) + 1, dtype=_small_uint(len(values)))
        lut[uniq] = idx
        if lut.dtype == x.dtype and np.array_equal(lut[uniq], uniq):      # the values are their indices already
            x = x.view()
            x.flags.writeable = False                  # the caller's column: read only, no copy
            return values, x
        return values, lut[x]
    codes, uniq = pd.factorize(col, use_na_sentinel=False)
    values, idx = _sensitive(pd.DataFrame({sa: uniq}), sa, sa_values)
    return values, idx.astype(_small_uint(len(values)))[codes]       # one byte per record for S <= 256


def _cells(zcols, dlo, dhi, s, S, weights=None, *, columns=False, max_cells=None):
    """Distinct ``(codes, s)`` rows and their multiplicities.

    With ``columns=True`` the codes come back as a list of d compact columns (the dtypes of
    ``zcols``) instead of an int64 matrix; with ``max_cells`` and no ``weights``, None when
    there are more distinct rows than that (the caller then runs on the records themselves:
    when almost every record is its own cell, the cells save nothing).

    Parameters
    ----------
    zcols : list of d ndarrays (n,)
        Each QI's 0-based codes (``code - dlo``), inside ``[0, dhi - dlo]``.
    s : ndarray (n,) int64
        SA value indices in ``[0, S)``.
    weights : ndarray (n,) int64, optional
        How many records each row stands for (default 1 each).

    Returns
    -------
    Z : ndarray (u, d) int64
        0-based codes of the distinct rows.
    su : ndarray (u,) int64
        Their SA value indices.
    w : ndarray (u,) int64
        How many records each distinct row stands for (sums to n, or to ``weights``).
    """
    d = len(zcols)
    n = s.size
    widths = [int(b) - int(a) + 1 for a, b in zip(dlo.tolist(), dhi.tolist())]
    cols = [None] * d                     # per QI: the sorted distinct codes when compressed
    size = S
    for W in widths:
        size *= W
    if size >= _INT_LIMIT:                # compress each QI to the ranks of its distinct codes
        size = S
        for j in range(d):
            cols[j] = np.unique(zcols[j])
            widths[j] = int(cols[j].size)
            size *= widths[j]
    if size >= _INT_LIMIT:                # still too wide for one int64 key: sort the rows
        Y = np.column_stack([z.astype(np.int64) for z in zcols] + [s])
        uniq, inv, w = np.unique(Y, axis=0, return_inverse=True, return_counts=True)
        if weights is not None:
            w = np.bincount(inv.ravel(), weights=weights, minlength=uniq.shape[0])
        Z = uniq[:, :d].astype(np.int64)
        if columns:
            Z = [Z[:, j].astype(zcols[j].dtype) for j in range(d)]
        return Z, uniq[:, d].astype(np.int64), w.astype(np.int64)
    # a count table when it is small (at most one int64 per 8 records); else a sort of the key,
    # in place (no copy of it) and in 4 bytes when it is below 2**32: 10^8 one-byte records over a
    # domain of 10^8 cells sort 0.4 GB of keys instead of counting 0.8 GB of them into a 0.8 GB table
    dense = size <= max(n // 8, _DENSE_CELLS)
    key = np.zeros(n, dtype=np.uint32 if size <= 2 ** 32 and not dense else np.int64)
    for j in range(d):
        key *= widths[j]                   # every partial key is below the full one: no overflow
        np.add(key, zcols[j] if cols[j] is None else np.searchsorted(cols[j], zcols[j]), out=key, casting="unsafe")
    key *= S
    np.add(key, s, out=key, casting="unsafe")
    if dense:
        counts = np.bincount(key, weights=weights, minlength=size)
        uk = np.flatnonzero(counts)
        w = counts[uk]
    elif weights is None:
        key.sort()                         # in place: the key is this function's own
        starts = _run_starts(key)          # where each cell but the first starts
        uk = np.empty(starts.size + min(n, 1), dtype=key.dtype)   # the key's dtype: the codes are split off in it
        uk[:min(n, 1)] = key[:1]
        np.take(key, starts, out=uk[min(n, 1):])
        del key                            # before the multiplicities: one n-sized array at a time
        w = np.empty(uk.size, dtype=np.int64)      # the differences of [0, starts, n], in place
        w[:starts.size] = starts
        w[starts.size:] = n
        w[1:1 + starts.size] -= starts
        del starts
    else:
        uk, inv = np.unique(key, return_inverse=True)
        w = np.bincount(inv, weights=weights, minlength=uk.size)
    key = None
    if max_cells is not None and weights is None and uk.size > max_cells:
        return None
    su = uk % S
    rest = uk // S
    Z = [None] * d if columns else np.empty((uk.size, d), dtype=np.int64)
    for j in range(d - 1, -1, -1):
        code = rest % widths[j]
        code = code if cols[j] is None else cols[j][code]
        if columns:
            Z[j] = code.astype(zcols[j].dtype)
        else:
            Z[:, j] = code
        rest //= widths[j]
    return Z, su.astype(np.int64), w.astype(np.int64, copy=False)


def _run_starts(key):
    """``np.flatnonzero(key[1:] != key[:-1]) + 1`` (the starts of the runs of a sorted key but the
    first), chunk by chunk: no n-sized boolean array (counted first, then written in place)."""
    n = key.size
    chunks = [(a, min(n - 1, a + _CHUNK)) for a in range(0, max(n - 1, 0), _CHUNK)]
    sizes = [int(np.count_nonzero(key[a + 1:b + 1] != key[a:b])) for a, b in chunks]
    out = np.empty(sum(sizes), dtype=np.int64)
    at = 0
    for (a, b), m in zip(chunks, sizes):
        np.add(np.flatnonzero(key[a + 1:b + 1] != key[a:b]), a + 1, out=out[at:at + m])
        at += m
    return out


#: Rows of the sample :func:`_mostly_distinct` reads (a stride through the table).
_SAMPLE = 1 << 16


def _mostly_distinct(zcols, s):
    """Whether a sample of the rows (every ``n // _SAMPLE``-th) is almost all distinct (at least
    95%): then so is, almost surely, the table, and counting its cells (a sort of n keys) would
    only to find that the cells save nothing.  A speed decision only: both paths give the
    same tree."""
    n = s.size
    if n < 4 * _SAMPLE:
        return False
    step = n // _SAMPLE
    rows = np.column_stack([z[::step].astype(np.int64) for z in zcols] + [s[::step].astype(np.int64)])
    return np.unique(rows, axis=0).shape[0] >= 0.95 * rows.shape[0]


def _cells_or_records(zcols, dlo, dhi, s, S, weights):
    """``(columns, s, w)`` to run a tree on: the distinct cells and their multiplicities (the cell
    path) or, when more than half of the records are distinct cells, the records themselves with
    ``w = None`` (the record path: the cells would save nothing).  Empties ``zcols`` (the caller's
    list), so that the codes live only as long as the returned columns."""
    cells = None
    if weights is not None or not _mostly_distinct(zcols, s):
        cells = _cells(zcols, dlo, dhi, s, S, weights, columns=True, max_cells=s.size // 2)
    if cells is None:
        Z, w = list(zcols), None
    else:
        Z, s, w = cells
    zcols.clear()
    return Z, s, w
