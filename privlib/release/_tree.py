"""A binary tree over boxes that partition the QI domain (the tree arrays of a Decomposition).

The builders of :mod:`privlib.partition` record their tree as they split.  A release given as
boxes only (another anonymizer's output, a histogram, a generalized table) has no tree, but
:meth:`privlib.partition.Decomposition.assign_codes` and :func:`privlib.attacks.leaf_majority`
locate a record by descending one.  :func:`build_tree` rebuilds one from the boxes alone:
top-down, level by level, each node is cut at a code ``t`` along a dimension such that no box
of the node straddles the cut (every box lies wholly at ``<= t`` or ``> t``), the most balanced
such cut (in boxes) being taken.  Such a tree exists exactly when the boxes form a
*hierarchical* (guillotine) partition -- which Mondrian, kd-trees, grids, histograms and
full-domain generalizations all are.

Vectorised: per level and dimension one sort of the node-local ranks of the boxes' bounds and
two ``searchsorted`` calls; no per-node Python loop.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

#: Largest node whose boxes are compared pairwise to name two overlapping boxes in an error.
_PAIRWISE = 2000


#: The trees of the last few large box sets: a sweep releases the same boxes again and again (a
#: histogram's cells, the same for every budget and seed), and their tree depends on the boxes only.
_RECENT: OrderedDict = OrderedDict()
#: Box sets remembered, and the fewest boxes worth remembering (smaller trees cost less than a look-up).
_RECENT_SIZE, _RECENT_MIN_BOXES = 4, 1000


def build_tree(lower: np.ndarray, upper: np.ndarray, dlo: np.ndarray, dhi: np.ndarray, *, fill: bool,
               qi: tuple, name: str) -> dict:
    """:func:`_build_tree`, remembered for the last few large box sets (a copy of the arrays is
    returned: the same tree, whoever asks).

    Examples
    --------
    >>> import numpy as np
    >>> lo, hi = np.arange(2000)[:, None], np.arange(2000)[:, None]
    >>> a = build_tree(lo, hi, np.array([0]), np.array([1999]), fill=False, qi=("x",), name="boxes")
    >>> b = build_tree(lo.copy(), hi.copy(), np.array([0]), np.array([1999]), fill=False, qi=("x",), name="boxes")
    >>> all(np.array_equal(a[k], b[k]) and a[k] is not b[k] for k in a)
    True
    """
    if len(lower) < _RECENT_MIN_BOXES:
        return _build_tree(lower, upper, dlo, dhi, fill=fill, qi=qi, name=name)
    arrays = tuple(np.ascontiguousarray(a) for a in (lower, upper, dlo, dhi))
    key = (bool(fill), tuple((a.dtype.str, a.shape, hash(a.tobytes())) for a in arrays))
    hit = _RECENT.get(key)
    if hit is not None and all(np.array_equal(a, b) for a, b in zip(arrays, hit[0])):
        _RECENT.move_to_end(key)
        return {k: v.copy() for k, v in hit[1].items()}
    out = _build_tree(lower, upper, dlo, dhi, fill=fill, qi=qi, name=name)
    _RECENT[key] = (tuple(a.copy() for a in arrays), {k: v.copy() for k, v in out.items()})
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return out


def _build_tree(lower: np.ndarray, upper: np.ndarray, dlo: np.ndarray, dhi: np.ndarray, *, fill: bool,
                qi: tuple, name: str) -> dict:
    """Tree arrays of a box partition (``fill=False``) or of disjoint boxes completed by empty ones.

    Parameters
    ----------
    lower, upper : ndarray (m x d), int64
        Inclusive bounds of the boxes, inside ``[dlo, dhi]`` (checked by the caller).
    dlo, dhi : ndarray (d,)
        The domain (root box).
    fill : bool
        False: the boxes must partition the domain (else ValueError naming ``name``).
        True: the part of the domain no box covers is cut into extra *filler* boxes (at most
        ``2 d`` per box), returned in ``fill_lower``/``fill_upper`` as leaves ``m, m+1, ...``.
    qi, name : for the messages.

    Returns
    -------
    dict
        ``dim, threshold, left, right, leaf, depth`` (node arrays, node 0 the root; leaf ``i < m``
        is box ``i``) and ``fill_lower, fill_upper``.
    """
    m, d = lower.shape
    rl = np.empty((m, d), np.int64)
    ru = np.empty((m, d), np.int64)
    n_ranks = []
    for j in range(d):
        vals, inv = np.unique(np.concatenate([lower[:, j], upper[:, j]]), return_inverse=True)
        inv = inv.ravel()
        rl[:, j], ru[:, j] = inv[:m], inv[m:]
        n_ranks.append(len(vals))

    ids = np.zeros(1, np.int64)                      # node ids of the current level
    reg_lo, reg_hi = dlo[None, :].copy(), dhi[None, :].copy()
    boxes = np.arange(m)                             # boxes still inside a node of this level
    where = np.zeros(m, np.int64)                    # their node (index into ids)
    next_id, level, n_fill = 1, 0, 0
    inner, leaves, depths, fillers = [], [], [], []
    while ids.size:
        k = ids.size
        depths.append((ids, level))
        cnt = np.bincount(where, minlength=k)
        single = np.full(k, -1, np.int64)
        single[where] = boxes                        # the box of a one-box node
        one = np.flatnonzero(cnt == 1)
        b1 = single[one]
        exact = (lower[b1] == reg_lo[one]).all(axis=1) & (upper[b1] == reg_hi[one]).all(axis=1)
        leaves.append((ids[one[exact]], b1[exact]))
        peel = one[~exact]
        empty = np.flatnonzero(cnt == 0)
        if empty.size:                               # only with fill: a peeled side
            leaves.append((ids[empty], m + n_fill + np.arange(empty.size)))
            fillers.append((reg_lo[empty], reg_hi[empty]))
            n_fill += empty.size
        multi = np.flatnonzero(cnt >= 2)
        s_nodes, s_dim, s_thr = [], [], []
        if multi.size:
            dim, thr, ok = _cuts(multi, cnt, boxes, where, upper, rl, ru, n_ranks, k)
            if not ok.all():
                _unseparable(multi[~ok][0], boxes, where, lower, upper, reg_lo, reg_hi, qi, name)
            s_nodes.append(multi)
            s_dim.append(dim)
            s_thr.append(thr)
        if not fill and peel.size:                   # checked after the overlaps (reported first)
            _gap(peel[0], single, lower, upper, reg_lo, reg_hi, qi, name)
        if fill and peel.size:                       # cut the empty side off a lone box
            b = single[peel]
            lo_gt = lower[b] > reg_lo[peel]
            hi_lt = upper[b] < reg_hi[peel]
            has_lo = lo_gt.any(axis=1)
            jl, jh = np.argmax(lo_gt, axis=1), np.argmax(hi_lt, axis=1)
            s_nodes.append(peel)
            s_dim.append(np.where(has_lo, jl, jh))
            s_thr.append(np.where(has_lo, lower[b, jl] - 1, upper[b, jh]))
        if not s_nodes:
            break
        sn = np.concatenate(s_nodes)
        sd = np.concatenate(s_dim).astype(np.int64)
        st = np.concatenate(s_thr).astype(np.int64)
        ns = sn.size
        left = next_id + 2 * np.arange(ns)
        inner.append((ids[sn], sd, st, left, left + 1))
        next_id += 2 * ns
        # children of split i: local indices 2i (<= thr) and 2i + 1 (> thr)
        r = np.arange(ns)
        new_lo = np.repeat(reg_lo[sn], 2, axis=0)
        new_hi = np.repeat(reg_hi[sn], 2, axis=0)
        new_hi[2 * r, sd] = st
        new_lo[2 * r + 1, sd] = st + 1
        pos = np.full(k, -1, np.int64)
        pos[sn] = r
        s = pos[where]
        keep = s >= 0
        boxes, s = boxes[keep], s[keep]
        go_right = upper[boxes, sd[s]] > st[s]
        where = 2 * s + go_right
        ids = np.column_stack([left, left + 1]).ravel()
        reg_lo, reg_hi = new_lo, new_hi
        level += 1

    n_nodes = next_id
    out = {"dim": np.full(n_nodes, -1, np.int64), "threshold": np.zeros(n_nodes, np.int64),
           "left": np.full(n_nodes, -1, np.int64), "right": np.full(n_nodes, -1, np.int64),
           "leaf": np.full(n_nodes, -1, np.int64), "depth": np.zeros(n_nodes, np.int64)}
    for nodes, sd, st, lft, rgt in inner:
        out["dim"][nodes], out["threshold"][nodes] = sd, st
        out["left"][nodes], out["right"][nodes] = lft, rgt
    for nodes, idx in leaves:
        out["leaf"][nodes] = idx
    for nodes, lev in depths:
        out["depth"][nodes] = lev
    out["fill_lower"] = np.concatenate([f[0] for f in fillers]) if fillers else np.zeros((0, d), np.int64)
    out["fill_upper"] = np.concatenate([f[1] for f in fillers]) if fillers else np.zeros((0, d), np.int64)
    return out


def _cuts(multi, cnt, boxes, where, upper, rl, ru, n_ranks, k):
    """For every node of ``multi``: the most balanced cut that no box straddles.

    A cut at ``t = upper[b, j]`` is valid when the boxes with ``lower_j <= t`` are exactly
    those with ``upper_j <= t`` (their counts ``A`` and ``B`` agree) and some box is left
    on the right (``B < n``).  Ranks replace codes in the node-local sort keys, so a key
    ``node * n_ranks + rank`` stays below ``2 m^2``.
    """
    pos = np.full(k, -1, np.int64)
    pos[multi] = np.arange(multi.size)
    sel = pos[where] >= 0
    bx = boxes[sel]
    p = pos[where[sel]]
    n_p = cnt[multi][p]
    cand_p, cand_score, cand_dim, cand_t = [], [], [], []
    for j, R in enumerate(n_ranks):
        base = p * R
        ku = base + ru[bx, j]
        su = np.sort(ku)
        sl = np.sort(base + rl[bx, j])
        start = np.searchsorted(su, base, side="left")
        B = np.searchsorted(su, ku, side="right") - start
        A = np.searchsorted(sl, ku, side="right") - start
        valid = (A == B) & (B < n_p)
        cand_p.append(p[valid])
        cand_score.append(np.abs(2 * B[valid] - n_p[valid]))
        cand_dim.append(np.full(int(valid.sum()), j, np.int64))
        cand_t.append(upper[bx[valid], j])
    cp, cs, cd, ct = (np.concatenate(a) for a in (cand_p, cand_score, cand_dim, cand_t))
    order = np.lexsort((ct, cd, cs, cp))
    cp, cd, ct = cp[order], cd[order], ct[order]
    first = np.r_[True, cp[1:] != cp[:-1]] if cp.size else np.zeros(0, bool)
    dim = np.full(multi.size, -1, np.int64)
    thr = np.zeros(multi.size, np.int64)
    dim[cp[first]] = cd[first]
    thr[cp[first]] = ct[first]
    return dim, thr, dim >= 0


def _point(values, qi) -> dict:
    return {c: int(v) for c, v in zip(qi, values)}


def _gap(node, single, lower, upper, reg_lo, reg_hi, qi, name):
    """A node whose only box is smaller than the node: a corner of the node lies in no box."""
    b = single[node]
    corner = reg_lo[node] if (lower[b] > reg_lo[node]).any() else reg_hi[node]
    raise ValueError(f"{name}: the boxes leave gaps in the domain: the point {_point(corner, qi)} lies in no "
                     "box; expected boxes that partition the domain (every code in exactly one box)")


def _volume(lo, hi) -> int:
    """Exact number of cells of each box, summed (Python integers: no overflow)."""
    w = (np.asarray(hi, dtype=object) - np.asarray(lo, dtype=object) + 1)
    return int(np.prod(w, axis=-1).sum()) if w.ndim == 2 else int(np.prod(w))


def _unseparable(node, boxes, where, lower, upper, reg_lo, reg_hi, qi, name):
    """No cut separates the boxes of ``node``: name two overlapping boxes, a gap, or the shape."""
    idx = boxes[where == node]
    if idx.size <= _PAIRWISE:
        lo, hi = lower[idx], upper[idx]
        for s in range(0, idx.size, 256):
            a = slice(s, s + 256)
            hit = ((lo[a, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[a, None, :])).all(axis=2)
            i, j = np.nonzero(hit)
            other = i + s != j
            if other.any():
                i, j = int(idx[i[other][0] + s]), int(idx[j[other][0]])
                i, j = min(i, j), max(i, j)
                raise ValueError(f"{name}: boxes {i} and {j} overlap ({_box(lower[i], upper[i], qi)} and "
                                 f"{_box(lower[j], upper[j], qi)}); expected disjoint boxes")
    vol, room = _volume(lower[idx], upper[idx]), _volume(reg_lo[node], reg_hi[node])
    if vol > room:
        raise ValueError(f"{name}: boxes overlap (boxes {idx[:5].tolist()}... cover {vol} cells of a region of "
                         f"{room}); expected disjoint boxes")
    if vol < room:
        raise ValueError(f"{name}: the boxes leave gaps in the domain (boxes {idx[:5].tolist()}... cover {vol} of "
                         f"the {room} cells of {_box(reg_lo[node], reg_hi[node], qi)}); expected boxes that "
                         "partition the domain")
    raise ValueError(f"{name}: the boxes {idx[:8].tolist()} partition {_box(reg_lo[node], reg_hi[node], qi)} but no "
                     "axis-parallel cut separates them (a pinwheel); expected a hierarchical (guillotine) "
                     "partition, as every kd-tree, Mondrian, grid or generalization produces")


def _box(lo, hi, qi) -> str:
    return "{" + ", ".join(f"{c}: [{int(a)}, {int(b)}]" for c, a, b in zip(qi, lo, hi)) + "}"
