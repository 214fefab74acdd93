"""Top-down specialization for k-anonymity (Fung, Wang & Yu 2005): DiffGen's baseline."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import check_int
from ._encoding import _prepare, _Prepared, _sorted_index
from ._pieces import PREDICTORS_DOC, TABLE_1A_DOC
from ._release import Release, _build_release, _code_under_cut, _group_keys, _specialize
from ._scores import _cat_child_counts, _num_split_table, infogain_score


@shared_doc(predictors=PREDICTORS_DOC, table_1a=TABLE_1A_DOC)
def tds(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *, k: int,
        qid: Sequence[str] | None = None) -> Release:
    """Top-down specialization for k-anonymity (Fung, Wang & Yu 2005), the baseline of Figure 4.

    ``qid`` is the quasi-identifier, a subset of ``predictors``; by default (None) all
    predictors form one quasi-identifier, so every group of the release holds >= k records.
    Predictors outside the QID are not generalized: TDS releases them unchanged (categorical
    values at the leaves, numerical values as the intervals between successive distinct
    training values, which order and separate the records exactly as the raw values do), and
    k-anonymity is required of the QID groups only.  Starting from the topmost cut of the QID
    attributes, each iteration
    performs the *valid* (every non-empty group keeps >= k records) and *beneficial*
    (InfoGain > 0) specialization with the highest ``Score(v) = InfoGain(v) / (AnonyLoss(v) + 1)``,
    ``AnonyLoss(v) = A - A_v`` (A: the smallest group size now, A_v: after specializing v).
    A numerical interval is split at the point that maximizes InfoGain (between two distinct
    values, at their midpoint), as in C4.5.  Stops when no candidate is valid and beneficial.

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table (no missing values).
    {{predictors}}
    k : int
        The anonymity threshold, 1 <= k <= len(df).
    qid : list of str, optional
        The quasi-identifier (e.g. :data:`privlib.experiments.diffgen.TDS_TOPN_QIDS`); None:
        all predictors.

    Returns
    -------
    Release
        The exact counts of the non-empty groups (empty ledger, no budget).

    Raises
    ------
    ValueError, TypeError
        A bad argument (the message names it: ``k``, ``qid``, ``predictors``, ...).

    {{table_1a}}
    >>> rel = tds(df, ["job", "age"], "class", {"job": job, "age": (18, 65)}, k=3)
    >>> [(s.attribute, s.split) for s in rel.history]
    [('age', 35.5)]
    """
    k = check_int(k, "k", minimum=1)
    prep = _prepare(df, predictors, target, taxonomies)
    if k > prep.n:
        raise ValueError(f"k: expected at most the number of records ({prep.n}), got {k}")
    return _tds(prep, k, _check_qid(qid, prep.predictors))


def _check_qid(qid, predictors):
    """None (all predictors) or a non-empty list of distinct predictors -> tuple or None."""
    if qid is None:
        return None
    if isinstance(qid, str):
        qid = [qid]
    qid = list(qid)
    if not qid:
        raise ValueError("qid: expected at least one quasi-identifier attribute, got none")
    unknown = [a for a in qid if a not in predictors]
    if unknown:
        raise ValueError(f"qid: attribute(s) {unknown} are not predictors; expected a subset of {list(predictors)}")
    if len(set(qid)) != len(qid):
        raise ValueError(f"qid: expected distinct attributes, got {qid}")
    return None if set(qid) == set(predictors) else tuple(qid)


def _raw_cut(prep, a_idx) -> list:
    """The cut that releases attribute ``a_idx`` unchanged: every taxonomy leaf, or intervals
    split at the midpoints between successive distinct training values."""
    a = prep.attrs[a_idx]
    if a.kind == "categorical":
        return [i for i in range(len(a.nodes)) if not a.children[i]]  # depth-first = leaf order
    v = prep.vals[a_idx]
    return [a.low, *(0.5 * (v[:-1] + v[1:])).tolist(), a.high]


def _tds_num_split(prep, a_idx, lo, hi):
    left, total, bounds, _ = _num_split_table(prep, a_idx, lo, hi)
    J = len(bounds) - 1
    if J < 3:  # fewer than two distinct values inside: nothing to split
        return None, 0.0
    inner = np.arange(1, J - 1)  # split between distinct values inner-1 and inner
    u = infogain_score(np.stack([left[inner], total[None, :] - left[inner]], axis=1))
    j = int(inner[np.argmax(u)])
    s = 0.5 * (bounds[j] + bounds[j + 1])
    return float(s), float(u.max())


def _unique_rows(codes: np.ndarray):
    """``np.unique(codes, axis=0, return_counts=True)`` for a 2-d int array, by one lexsort
    (the same rows, in the same lexicographic order, with their counts; much faster)."""
    if len(codes) == 0:
        return np.unique(codes, axis=0, return_counts=True)
    s = codes[np.lexsort(codes.T[::-1])]          # first column = primary key
    new = np.empty(len(s), dtype=bool)
    new[0] = True
    np.any(s[1:] != s[:-1], axis=1, out=new[1:])
    starts = np.flatnonzero(new)
    return s[starts], np.diff(np.append(starts, len(s)))


def _tds(prep: _Prepared, k: int, qid=None, labels: bool = True) -> Release:
    in_qid = [qid is None or a.name in qid for a in prep.attrs]
    cut_nodes = [([0] if a.kind == "categorical" else [a.low, a.high]) if q else _raw_cut(prep, j)
                 for j, (a, q) in enumerate(zip(prep.attrs, in_qid))]
    # per-record group id (the leaf partition) and group sizes
    gid = np.zeros(prep.n, dtype=np.int64)
    sizes_g = np.array([prep.n])
    cands = []  # (a_idx, key, infogain, split)
    history = []

    def add(a_idx, key):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            if a.children[key]:
                ig = float(infogain_score(_cat_child_counts(prep, a_idx, key)))
                cands.append((a_idx, key, ig, None))
        else:
            s, ig = _tds_num_split(prep, a_idx, *key)
            if s is not None:
                cands.append((a_idx, key, ig, s))

    def records(a_idx, key):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            lo, hi = a.lo[key], a.hi[key]
        else:
            lo, hi = key
        order, sorted_vals = _sorted_index(prep, a_idx)   # record order by value (shared by runs)
        i0, i1 = np.searchsorted(sorted_vals, [lo, hi], side="left")
        return order[i0:i1]

    def child_codes(a_idx, key, split, idx):
        a = prep.attrs[a_idx]
        if a.kind == "categorical":
            ch = a.children[key]
            lut = np.full(a.n_leaves, -1, dtype=np.int64)
            for j, c in enumerate(ch):
                lut[a.lo[c]:a.hi[c]] = j
            return lut[prep.raw[a_idx][idx]], len(ch)
        return (prep.raw[a_idx][idx] >= split).astype(np.int64), 2

    for a_idx, a in enumerate(prep.attrs):
        if in_qid[a_idx]:
            add(a_idx, 0 if a.kind == "categorical" else (a.low, a.high))

    it = 0
    parts: dict = {}   # (a_idx, key) -> (records, child codes, number of children)
    while True:
        A = int(sizes_g[sizes_g > 0].min())
        best, best_score, best_info = None, -np.inf, None
        still = []
        for cand in cands:
            a_idx, key, ig, split = cand
            if (a_idx, key) not in parts:   # a candidate's records and their children do not change
                idx = records(a_idx, key)
                parts[(a_idx, key)] = (idx, *child_codes(a_idx, key, split, idx)) if len(idx) else (idx, None, 0)
            idx, cc, nch = parts[(a_idx, key)]
            if len(idx) == 0:
                still.append(cand)
                continue
            g = gid[idx]
            sub = np.bincount(g * nch + cc, minlength=len(sizes_g) * nch)
            new_min = int(sub[sub > 0].min())
            if new_min < k:
                continue  # invalid now, invalid forever (groups only get smaller)
            still.append(cand)
            if ig <= 0:
                continue
            touched = np.zeros(len(sizes_g), dtype=bool)
            touched[g] = True
            rest = sizes_g[~touched & (sizes_g > 0)]
            A_v = min(new_min, int(rest.min())) if len(rest) else new_min
            score = ig / (A - A_v + 1)
            if score > best_score:
                best, best_score, best_info = cand, score, (idx, cc, nch, g)
        cands = still
        if best is None:
            break
        it += 1
        cands.remove(best)
        a_idx, key, ig, split = best
        del parts[(a_idx, key)]   # specialized: its key leaves the cut
        idx, cc, nch, g = best_info
        a = prep.attrs[a_idx]
        # new group ids: (old group, child) pairs of the specialized records
        pair = g * nch + cc
        present = np.bincount(pair, minlength=len(sizes_g) * nch) > 0   # np.unique(pair, return_inverse=True)
        uniq = np.flatnonzero(present)                                  # by counting: pair < groups x children
        inv = (np.cumsum(present) - 1)[pair]
        new_ids = len(sizes_g) + np.arange(len(uniq))
        sizes_g = np.concatenate([sizes_g, np.bincount(inv, minlength=len(uniq))])
        sizes_g[g] = 0
        gid[idx] = new_ids[inv]
        new, spec = _specialize(a, cut_nodes[a_idx], key, split, it, ig)
        for c in new:
            add(a_idx, c)
        history.append(spec)

    if qid is None:
        key_, sizes, n_groups = _group_keys(prep, cut_nodes)
        cells, counts = np.unique(key_ * prep.K + prep.y, return_counts=True)
        return _build_release(prep, cut_nodes, cells, counts, history=tuple(history), method="tds",
                              domain_cells=n_groups * prep.K, labels=labels)
    # raw non-QID attributes: the domain can exceed int64, so count the occurring rows directly
    codes = np.column_stack([_code_under_cut(a, x, c) for a, x, c in zip(prep.attrs, prep.raw, cut_nodes)]
                            + [prep.y])
    rows, counts = _unique_rows(codes)
    n_groups = 1
    for a, c in zip(prep.attrs, cut_nodes):
        n_groups *= len(c) if a.kind == "categorical" else len(c) - 1
    return _build_release(prep, cut_nodes, None, counts, codes=rows, history=tuple(history),
                          method="tds", domain_cells=n_groups * prep.K, labels=labels)


