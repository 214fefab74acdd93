"""Mondrian multidimensional partitioning (LeFevre, DeWitt & Ramakrishnan, ICDE 2006)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Hashable

import numpy as np
import pandas as pd

from .._validation import check_has_order, check_in, check_int, check_probability
from ..requirements import KAnonymity, LDiversity, TCloseness
from ._cells import _cells, _qi_box, _sensitive_codes
from ._decomposition import Decomposition, _group_hist, _Tree
from ._encoding import _check_common


def mondrian(df: pd.DataFrame, qi: Sequence[str], sa: str, *, k: int, l: int | None = None,
             t: float | None = None, max_height: int | None = None, l_kind: str = "distinct",
             distance: str | None = None, t_rule: str = "strict",
             domain: Mapping[str, tuple[int, int]] | None = None,
             sa_values: Sequence[Hashable] | None = None) -> Decomposition:
    """Mondrian multidimensional partitioning with k-anonymity, ell-diversity and t-closeness.

    Strict median splits, level by level (LeFevre et al. 2006, Algorithm "Anonymize"):
    each node is split on the QI with the widest normalised range of its records (ties:
    the first listed), trying the next-widest when that split is not allowed, at the
    median code (the cut ``<= m`` or ``< m``, whichever is more balanced and allowed).  A
    split is *allowed* when both children

    * hold at least ``k`` records (k-anonymity),
    * are ell-diverse for ``l`` (``l_kind="distinct"``: at least ``l`` distinct SA values,
      the main reading; ``"frequency"``: no SA value has more than a ``1/l`` share, the
      "well-represented" reading that reproduces the source's "largest achievable l"),
    * with ``t_rule="strict"``: have EMD at most ``t`` between their SA distribution and the
      whole table's (``distance="equal"`` for a nominal SA, ``"ordered"`` for an ordinal one).

    (the requirement objects :class:`privlib.requirements.KAnonymity`, ``LDiversity(l,
    kind=l_kind)`` and ``TCloseness(t, distance=distance)``, the reference distribution being
    the whole table's).

    With ``t_rule="source"`` the threshold ``t`` acts on the node itself, as in the source's
    Section III (the t-closeness variant built on k-anonymity): "nodes having EMD (compared
    to root) larger than the threshold t will not be split further".  A node whose EMD to the
    root exceeds ``t`` is a leaf; a node within ``t`` may be split even if a child then
    exceeds ``t`` (that child becomes a leaf).

    A node none of whose splits is allowed, or at depth ``max_height``, is a leaf.

    What the leaves guarantee: with ``t_rule="strict"`` every published leaf is within EMD
    ``t`` of the whole table (the release is t-close).  With ``t_rule="source"`` only the
    *internal* nodes are; a leaf may be farther than ``t`` from the root -- by at most what
    one median split can move a distribution -- so the release is **not** t-close in the sense
    of Li et al.  Use ``"source"`` to reproduce the source's Figures 3 and 5, ``"strict"`` to
    publish.

    Parameters
    ----------
    df : pandas.DataFrame
    qi : list of str
        Quasi-identifiers, ordered integer codes (see :func:`qi_codes`).
    sa : str
        Sensitive attribute (any hashable values; histogram columns in sorted order).
    k : int
        1 <= k <= len(df).
    l : int, optional
        1 <= l <= number of distinct SA values.
    t : float, optional
        EMD threshold in [0, 1].
    max_height : int, optional
        Largest depth of a leaf (root = 0).
    l_kind : {"distinct", "frequency"}
    distance : {"equal", "ordered"}, optional
        Ground distance of t; default "ordered" for a numeric SA, "equal" otherwise.  The
        ordered distance needs an order of the SA values: a numeric SA, an ordered
        categorical, or ``sa_values`` listing the values in order (a text SA is never sorted
        as text: "11K" < "3K").
    t_rule : {"strict", "source"}
        How ``t`` constrains the tree (see above): ``"strict"`` (default; every leaf within
        ``t``) or ``"source"`` (a node farther than ``t`` from the root is not split further;
        leaves may exceed ``t``).  Ignored when ``t`` is None.
    domain : dict, optional
        ``{qi: (low, high)}`` integer root box; default the data's min and max per QI (no
        warning: Mondrian is a syntactic model with no privacy budget).
    sa_values : sequence, optional
        The SA's value set (default: the sorted values present).

    Returns
    -------
    Decomposition
        Exact SA histograms; ``params`` records k, l, t, t_rule, l_kind, distance, max_height.

    Raises
    ------
    ValueError
        For k, l, t, l_kind, distance, t_rule or max_height out of range, and for
        ``distance="ordered"`` on a text SA without ``sa_values`` (and not an ordered
        categorical).

    Examples
    --------
    A node farther than ``t`` from the root stops (source) or is never created (strict):

    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": range(8), "s": list("aaaabbbb")})
    >>> mondrian(df, ["x"], "s", k=2, t=0.3, t_rule="source").n_leaves
    2
    >>> mondrian(df, ["x"], "s", k=2, t=0.3, t_rule="strict").n_leaves
    1
    >>> mondrian(df, ["x"], "s", k=2, l=2).n_leaves
    1
    """
    return _mondrian(df, qi, sa, None, k=k, l=l, t=t, max_height=max_height, l_kind=l_kind, distance=distance,
                     t_rule=t_rule, domain=domain, sa_values=sa_values)


def _mondrian(df, qi, sa, weights, *, k, l, t, max_height, l_kind, distance, t_rule, domain, sa_values):
    """:func:`mondrian`, its checks and its tree; with ``weights`` (int64, one per row of ``df``,
    >= 1) each row stands for that many records (:mod:`privlib.scale` passes distinct rows)."""
    qi = _check_common(df, qi, sa)
    n = len(df) if weights is None else int(weights.sum())
    k = check_int(k, "k", minimum=1)
    if k > n:
        raise ValueError(f"k: expected an integer <= the number of records ({n}), got {k}")
    zcols, dlo, dhi = _qi_box(df, qi, domain)        # the QIs' codes, one compact column each
    values, s = _sensitive_codes(df, sa, sa_values)
    S = len(values)
    if l is not None:
        l = check_int(l, "l", minimum=1)
        if l > S:
            raise ValueError(f"l: expected at most the number of sensitive values ({S}), got {l}")
    check_in(l_kind, "l_kind", ("distinct", "frequency"))
    if t is not None:
        t = check_probability(t, "t")
    if distance is None:
        distance = "ordered" if pd.api.types.is_numeric_dtype(df[sa]) else "equal"
    check_in(distance, "distance", ("equal", "ordered"))
    check_in(t_rule, "t_rule", ("strict", "source"))
    if t is not None and distance == "ordered" and sa_values is None:
        check_has_order(df[sa], "sa_values")
    if max_height is not None:
        max_height = check_int(max_height, "max_height", minimum=0)
    root = np.bincount(s, weights=weights, minlength=S).astype(float)
    root_p = root / n
    # Mondrian reads the records only through counts: run it on the distinct (QI codes, SA) rows,
    # each weighted by how many records it stands for (exactly the same tree, leaves and counts)
    Z, s, w = _cells(zcols, dlo, dhi, s, S, weights)
    del zcols
    # the privacy models as requirement objects, checked on each candidate child (LeFevre et al.'s
    # "allowable" cut: both children satisfy every requirement)
    k_req = KAnonymity(k)
    l_req = LDiversity(l, kind=l_kind) if l is not None else None
    t_req = TCloseness(t, distance=distance) if t is not None else None
    child_t = t is not None and t_rule == "strict"      # strict: t on the children of a split
    node_t = t is not None and t_rule == "source"       # source: t on the node being split
    tree, leaf_nodes, hists = _mondrian_cells(Z, s, w, S, dlo, dhi, root_p, k_req, l_req, t_req, child_t, node_t,
                                              max_height)
    params = dict(model="mondrian", k=k, l=l, t=t, t_rule=t_rule if t is not None else None, l_kind=l_kind,
                  distance=distance, max_height=max_height, n=n)
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)


def _node_ranks(r, g, wr, cnt, m, V):
    """Per node of a level, along one QI given as ranks ``r`` (0 .. V-1) of rows weighted ``wr``:
    the smallest and largest rank, the median rank (the rank at sorted position ``(cnt - 1) // 2``
    of the node's records) and the records at most / below the median."""
    ar = np.arange(m)
    if m * V <= max(4 * r.size, 1 << 16):          # a (nodes x ranks) count table
        T = np.bincount(g * V + r, weights=wr, minlength=m * V).reshape(m, V)
        nz = T > 0
        vmin = np.argmax(nz, axis=1)
        vmax = V - 1 - np.argmax(nz[:, ::-1], axis=1)
        C = np.cumsum(T, axis=1)                       # integer-valued floats, exact below 2**53
        med = (C < ((cnt - 1) // 2 + 1)[:, None]).sum(axis=1)
        n_le = C[ar, med].astype(np.int64)
        n_lt = np.where(med > 0, C[ar, np.maximum(med - 1, 0)], 0).astype(np.int64)
        return vmin, vmax, med, n_le, n_lt
    key = g * V + r                                    # m, V <= rows < 2**31: fits in int64
    o = np.argsort(key, kind="stable")
    ks = key[o]
    cw = np.concatenate([[0], np.cumsum(wr[o].astype(np.int64))])
    base = ar.astype(np.int64) * V
    fs = np.searchsorted(ks, base, side="left")
    ls = np.searchsorted(ks, base + V, side="left") - 1
    before = cw[fs]
    vmin, vmax = ks[fs] - base, ks[ls] - base
    q = np.searchsorted(cw, before + (cnt - 1) // 2 + 1, side="left") - 1
    med = ks[q] - base
    n_le = cw[np.searchsorted(ks, base + med, side="right")] - before
    n_lt = cw[np.searchsorted(ks, base + med, side="left")] - before
    return vmin, vmax, med, n_le, n_lt


def _mondrian_cells(Z, s, w, S, dlo, dhi, root_p, k_req, l_req, t_req, child_t, node_t, max_height):
    """Mondrian's level-by-level splits on weighted distinct rows (see :func:`mondrian`).

    ``Z``: (u, d) 0-based codes, ``s``: SA indices, ``w``: multiplicities.  Returns the
    :class:`_Tree`, the leaf node ids and their (float) SA histograms.
    """
    d = Z.shape[1]
    width = (dhi - dlo + 1).astype(np.int64)
    need_hist = l_req is not None or child_t

    def ok(hist, cnt):
        good = k_req.satisfied(cnt)
        if l_req is not None:
            good &= l_req.satisfied(cnt, hist)
        if child_t:
            good &= t_req.satisfied(cnt, hist, q=root_p)
        return good

    # every QI as the ranks of its distinct codes (medians and cuts are read on the ranks)
    vals = [np.unique(Z[:, j]) for j in range(d)]
    R = np.column_stack([np.searchsorted(vals[j], Z[:, j]) for j in range(d)])
    u = Z.shape[0]
    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    node_of = np.zeros(u, dtype=np.int64)       # local index into the active list
    active = ids                                 # tree ids of the active nodes
    act_lo = dlo[None, :] - dlo                  # boxes in 0-based codes
    act_hi = dhi[None, :] - dlo
    rec = np.arange(u)                           # rows still in active nodes
    leaf_nodes, leaf_hists = [], []
    depth = 0
    while active.size:
        m = active.size
        g = node_of[rec]
        srec = s[rec]
        wr = w[rec].astype(float)
        cnt = np.bincount(g, weights=wr, minlength=m).astype(np.int64)
        hist = _group_hist(g, srec, m, S, wr)
        can = np.ones(m, dtype=bool) if max_height is None else np.full(m, depth < max_height)
        if node_t:      # "nodes having EMD (compared to root) larger than t will not be split further"
            can &= t_req.satisfied(cnt, hist, q=root_p)
        best_dim = np.full(m, -1, dtype=np.int64)
        best_thr = np.zeros(m, dtype=np.int64)
        best_rthr = np.zeros(m, dtype=np.int64)
        cand_thr = np.zeros((m, d), dtype=np.int64)
        cand_rthr = np.zeros((m, d), dtype=np.int64)
        cand_ok = np.zeros((m, d), dtype=bool)
        spread = np.zeros((m, d))
        for j in range(d):
            rj = R[rec, j]
            rmin, rmax, rmed, n_le, n_lt = _node_ranks(rj, g, wr, cnt, m, int(vals[j].size))
            spread[:, j] = (vals[j][rmax] - vals[j][rmin]) / max(int(width[j]) - 1, 1)
            med = vals[j][rmed]
            h_le = h_lt = None
            if need_hist:
                h_le = _group_hist(g, srec, m, S, wr * (rj <= rmed[g]))
                h_lt = _group_hist(g, srec, m, S, wr * (rj < rmed[g]))
            ok_le = (n_le > 0) & (n_le < cnt) & ok(h_le, n_le) & ok(None if h_le is None else hist - h_le, cnt - n_le)
            ok_lt = (n_lt > 0) & (n_lt < cnt) & ok(h_lt, n_lt) & ok(None if h_lt is None else hist - h_lt, cnt - n_lt)
            bal_le = np.abs(2 * n_le - cnt)
            bal_lt = np.abs(2 * n_lt - cnt)
            use_lt = ok_lt & (~ok_le | (bal_lt < bal_le))
            cand_ok[:, j] = (ok_le | ok_lt) & can
            cand_thr[:, j] = np.where(use_lt, med - 1, med)
            cand_rthr[:, j] = np.where(use_lt, rmed - 1, rmed)     # code <= med - 1  <=>  rank <= rmed - 1
        # preference: widest normalised spread first (stable: first listed on ties)
        order = np.argsort(-spread, axis=1, kind="stable")
        ar = np.arange(m)
        for r in range(d):
            j = order[:, r]
            okj = cand_ok[ar, j] & (best_dim < 0)
            best_dim[okj] = j[okj]
            best_thr[okj] = cand_thr[ar, j][okj]
            best_rthr[okj] = cand_rthr[ar, j][okj]
        split = best_dim >= 0
        # leaves
        leaf_idx = np.flatnonzero(~split)
        leaf_nodes.extend(active[leaf_idx].tolist())
        leaf_hists.append(hist[leaf_idx])
        if not split.any():
            break
        sp = np.flatnonzero(split)
        dims = best_dim[sp]
        thr = best_thr[sp]
        rthr = best_rthr[sp]
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        rows = np.arange(sp.size)
        hi_l[rows, dims] = thr
        lo_r[rows, dims] = thr + 1
        depth += 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth)
        tree.split(active[sp], dims, thr + dlo[dims], left_ids, right_ids)
        # move rows: new local index = 2 * position-in-sp + (right)
        pos = np.full(m, -1, dtype=np.int64)
        pos[sp] = np.arange(sp.size)
        keep = split[g]
        rec = rec[keep]
        g2 = pos[g[keep]]
        right = R[rec, dims[g2]] > rthr[g2]
        node_of[rec] = 2 * g2 + right
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    return tree, leaf_nodes, hists
