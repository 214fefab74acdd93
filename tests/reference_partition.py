"""Frozen reference copies of Mondrian and the DP kd-tree, as they were before the census-scale
rewrite (one sort per level and QI), kept to test the rewrite leaf for leaf.

Not a test module (no ``test_`` prefix); public privlib names only (the private helpers the
builders used are copied here).  Inputs are assumed valid: the public functions validate.
Each function returns a dict of the tree's arrays: ``lower``, ``upper``, ``histograms`` (leaf
order = tree-node order), ``tree_dim``, ``tree_threshold``, ``tree_left``, ``tree_right``,
``tree_depth`` and ``leaf_nodes``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from privlib.accounting import Ledger
from privlib.mechanisms import discrete_laplace
from privlib.partition import qi_codes, root_box
from privlib.requirements import KAnonymity, LDiversity, TCloseness

_INT_LIMIT = 2 ** 62


def _group_hist(group, values, n_groups, n_values, weights=None):
    return np.bincount(group * n_values + values, weights=weights,
                       minlength=n_groups * n_values).reshape(n_groups, n_values)


def _sensitive(df, sa, sa_values=None):
    s = df[sa]
    if sa_values is None:
        if isinstance(s.dtype, pd.CategoricalDtype):
            values = list(s.cat.categories)
        else:
            values = sorted(pd.unique(s).tolist())
    else:
        values = list(sa_values)
    idx = pd.Index(values).get_indexer(s)
    return tuple(values), idx.astype(np.int64)


class _Tree:
    def __init__(self, d):
        self.dim, self.thr, self.left, self.right, self.depth = [], [], [], [], []
        self.lo, self.hi = [], []
        self.d = d

    def add(self, lo, hi, depth):
        start = len(self.dim)
        m = lo.shape[0]
        self.dim.extend([-1] * m)
        self.thr.extend([0] * m)
        self.left.extend([-1] * m)
        self.right.extend([-1] * m)
        self.depth.extend([depth] * m)
        self.lo.append(lo)
        self.hi.append(hi)
        return np.arange(start, start + m)

    def split(self, nodes, dims, thrs, left, right):
        dim = np.asarray(self.dim)
        dim[nodes] = dims
        self.dim = dim.tolist()
        for arr_name, vals in (("thr", thrs), ("left", left), ("right", right)):
            arr = np.asarray(getattr(self, arr_name), dtype=np.int64)
            arr[nodes] = vals
            setattr(self, arr_name, arr.tolist())

    def finish(self, leaf_nodes, histograms):
        lo = np.concatenate(self.lo)
        hi = np.concatenate(self.hi)
        leaf_nodes = np.asarray(leaf_nodes, dtype=np.int64)
        order = np.argsort(leaf_nodes, kind="stable")
        leaf_nodes = leaf_nodes[order]
        return dict(lower=lo[leaf_nodes], upper=hi[leaf_nodes],
                    histograms=np.asarray(histograms, dtype=float)[order],
                    tree_dim=np.asarray(self.dim, np.int64), tree_threshold=np.asarray(self.thr, np.int64),
                    tree_left=np.asarray(self.left, np.int64), tree_right=np.asarray(self.right, np.int64),
                    tree_depth=np.asarray(self.depth, np.int64), leaf_nodes=leaf_nodes)


def reference_mondrian(df, qi, sa, *, k, l=None, t=None, max_height=None, l_kind="distinct", distance=None,
                       t_rule="strict", domain=None, sa_values=None):
    """privlib.partition.mondrian before the census-scale rewrite (its body, unchanged)."""
    qi = list(qi)
    n = len(df)
    X = qi_codes(df, qi)
    values, s = _sensitive(df, sa, sa_values)
    S = len(values)
    if distance is None:
        distance = "ordered" if pd.api.types.is_numeric_dtype(df[sa]) else "equal"
    dlo, dhi = root_box(X, qi, domain=domain)
    d = X.shape[1]
    width = (dhi - dlo + 1).astype(np.int64)
    Z = X - dlo
    root = np.bincount(s, minlength=S).astype(float)
    root_p = root / n
    k_req = KAnonymity(k)
    l_req = LDiversity(l, kind=l_kind) if l is not None else None
    t_req = TCloseness(t, distance=distance) if t is not None else None
    child_t = t is not None and t_rule == "strict"
    node_t = t is not None and t_rule == "source"

    def ok(hist, cnt):
        good = k_req.satisfied(cnt)
        if l_req is not None:
            good &= l_req.satisfied(cnt, hist)
        if child_t:
            good &= t_req.satisfied(cnt, hist, q=root_p)
        return good

    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    node_of = np.zeros(n, dtype=np.int64)
    active = ids
    act_lo = dlo[None, :] - dlo
    act_hi = dhi[None, :] - dlo
    rec = np.arange(n)
    leaf_nodes, leaf_hists = [], []
    depth = 0
    while active.size:
        m = active.size
        g = node_of[rec]
        srec = s[rec]
        cnt = np.bincount(g, minlength=m)
        hist = _group_hist(g, srec, m, S).astype(float)
        can = np.ones(m, dtype=bool) if max_height is None else np.full(m, depth < max_height)
        if node_t:
            can &= t_req.satisfied(cnt, hist, q=root_p)
        starts = np.concatenate([[0], np.cumsum(cnt)[:-1]])
        best_dim = np.full(m, -1, dtype=np.int64)
        best_thr = np.zeros(m, dtype=np.int64)
        best_rank = np.full(m, d + 1, dtype=np.int64)
        cand_thr = np.zeros((m, d), dtype=np.int64)
        cand_ok = np.zeros((m, d), dtype=bool)
        spread = np.zeros((m, d))
        for j in range(d):
            W = int(width[j])
            zj = Z[rec, j]
            if m * W < _INT_LIMIT:
                base = np.arange(m, dtype=np.int64) * W
                sk = np.sort(g * W + zj)
                at = lambda pos: sk[pos] - base        # noqa: E731
            else:
                sz = zj[np.lexsort((zj, g))]
                at = lambda pos: sz[pos]               # noqa: E731
            vmin = at(starts)
            vmax = at(starts + cnt - 1)
            spread[:, j] = (vmax - vmin) / max(W - 1, 1)
            med = at(starts + (cnt - 1) // 2)
            side_le = zj <= med[g]
            side_lt = zj < med[g]
            n_le = np.bincount(g[side_le], minlength=m)
            n_lt = np.bincount(g[side_lt], minlength=m)
            h_le = _group_hist(g, srec, m, S, side_le.astype(float))
            h_lt = _group_hist(g, srec, m, S, side_lt.astype(float))
            ok_le = (n_le > 0) & (n_le < cnt) & ok(h_le, n_le) & ok(hist - h_le, cnt - n_le)
            ok_lt = (n_lt > 0) & (n_lt < cnt) & ok(h_lt, n_lt) & ok(hist - h_lt, cnt - n_lt)
            bal_le = np.abs(2 * n_le - cnt)
            bal_lt = np.abs(2 * n_lt - cnt)
            use_lt = ok_lt & (~ok_le | (bal_lt < bal_le))
            cand_ok[:, j] = (ok_le | ok_lt) & can
            cand_thr[:, j] = np.where(use_lt, med - 1, med)
        order = np.argsort(-spread, axis=1, kind="stable")
        for r in range(d):
            j = order[:, r]
            okj = cand_ok[np.arange(m), j] & (best_dim < 0)
            best_dim[okj] = j[okj]
            best_thr[okj] = cand_thr[np.arange(m), j][okj]
            best_rank[okj] = r
        split = best_dim >= 0
        leaf_idx = np.flatnonzero(~split)
        leaf_nodes.extend(active[leaf_idx].tolist())
        leaf_hists.append(hist[leaf_idx])
        if not split.any():
            break
        sp = np.flatnonzero(split)
        dims = best_dim[sp]
        thr = best_thr[sp]
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        rows = np.arange(sp.size)
        hi_l[rows, dims] = thr
        lo_r[rows, dims] = thr + 1
        depth += 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth)
        tree.split(active[sp], dims, thr + dlo[dims], left_ids, right_ids)
        pos = np.full(m, -1, dtype=np.int64)
        pos[sp] = np.arange(sp.size)
        keep = split[g]
        rec = rec[keep]
        g2 = pos[g[keep]]
        right = Z[rec, dims[g2]] > thr[g2]
        node_of[rec] = 2 * g2 + right
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    return tree.finish(leaf_nodes, hists)


# ----------------------------------------------------------------------------- the DP kd-tree
_LEAF_DETAIL = "leaf histogram: one exact discrete Laplace count per SA value, disjoint cells (parallel)"


def _median_segments(z, k, K, lo, hi):
    """The candidate cut points of ``K`` nodes as runs of equal utility (piecewise constant).

    Node ``i`` holds the records ``k == i`` with codes ``z`` (0-based) and cuts
    ``c in [lo[i], hi[i] - 1]`` (left child: codes ``<= c``); the median utility
    ``-| #{x <= c} - n_i / 2 |`` only changes at the records' distinct codes, so the cuts
    fall into at most ``1 + distinct codes`` runs: ``[lo, u_1 - 1]`` (count 0),
    ``[u_r, u_{r+1} - 1]`` (count ``C_r``, the records ``<= u_r``), ..., ``[u_last, hi - 1]``.

    Returns
    -------
    seg_node, seg_start, seg_len, seg_util : ndarrays (runs,)
        Runs of positive length only, ordered by node; memory O(records + nodes), not
        O(nodes x domain width).
    """
    cnt = np.bincount(k, minlength=K)
    width = int(hi.max(initial=0)) + 1 if K else 1         # codes are 0-based: z <= hi < width
    if K * width <= max(4 * k.size, 1 << 16):
        # narrow domain: a (nodes x codes) count table no larger than a few times the records
        table = np.bincount(k * width + z, minlength=K * width).reshape(K, width)
        pk, pv = np.nonzero(table)                         # distinct (node, code) pairs, sorted
        C = np.cumsum(table, axis=1)[pk, pv]               # records <= pv in the node
    else:
        if K * width < _INT_LIMIT:                         # one int64 sort key (checked in Python ints)
            order = np.argsort(k * width + z, kind="stable")
        else:
            order = np.lexsort((z, k))                    # by node, then code (stable)
        k, z = k[order], z[order]
        first = np.ones(k.size, dtype=bool)
        first[1:] = (k[1:] != k[:-1]) | (z[1:] != z[:-1])
        starts = np.flatnonzero(first)
        pk, pv = k[starts], z[starts]                      # distinct (node, code) pairs, sorted
        last = np.append(starts[1:], k.size) - 1           # last record of each pair
        C = last + 1 - np.searchsorted(k, pk, side="left")     # records <= pv in the node
    pk = pk.astype(np.int64)
    pv = pv.astype(np.int64)
    same = np.zeros(pk.size, dtype=bool)
    same[:-1] = pk[1:] == pk[:-1]
    nxt = np.append(pv[1:], 0)
    end = np.where(same, nxt - 1, hi[pk] - 1)
    first_end = hi - 1                                     # a node without records: one run
    has = cnt > 0
    first_code = np.zeros(K, dtype=np.int64)
    first_code[pk[::-1]] = pv[::-1]                        # smallest code of each node
    first_end = np.where(has, first_code - 1, first_end)
    seg_node = np.concatenate([np.arange(K, dtype=np.int64), pk])
    seg_start = np.concatenate([lo, pv])
    seg_end = np.concatenate([first_end, end])
    seg_util = -np.abs(np.concatenate([np.zeros(K), C.astype(float)]) - cnt[seg_node] / 2.0)
    seg_len = seg_end - seg_start + 1
    keep = seg_len > 0
    order = np.argsort(seg_node[keep], kind="stable")
    return (seg_node[keep][order], seg_start[keep][order], seg_len[keep][order], seg_util[keep][order])


def _private_medians(z, k, K, lo, hi, eps, gen):
    """One exponential-mechanism median per node, drawn run by run (see :func:`_median_segments`).

    Exactly the distribution of the dense draw over every integer cut
    (:func:`privlib.mechanisms.exponential_rows` on ``-|#{x <= c} - n/2|``, sensitivity 1):
    a run is chosen with weight ``length * exp(eps u / 2)`` by the Gumbel-max trick
    (:func:`privlib.mechanisms.exponential_rows`' method), then a cut uniformly inside it.
    """
    seg_node, seg_start, seg_len, seg_util = _median_segments(z, k, K, lo, hi)
    score = eps * seg_util / 2.0 + np.log(seg_len.astype(float)) + gen.gumbel(size=seg_node.size)
    order = np.lexsort((-score, seg_node))                 # best run of each node first
    best = order[np.searchsorted(seg_node[order], np.arange(K), side="left")]
    return seg_start[best] + gen.integers(0, seg_len[best])


def reference_dp_kdtree(df, qi, sa, *, eps, height, rng, median_fraction=0.3, domain=None, sa_values=None):
    """privlib.partition.dp_kdtree before the census-scale rewrite (its body, unchanged; the
    returned dict also holds the ``ledger``)."""
    qi = list(qi)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    X = qi_codes(df, qi)
    values, s = _sensitive(df, sa, sa_values)
    dlo, dhi = root_box(X, qi, domain=domain)
    S = len(values)
    n, d = X.shape
    Z = X - dlo
    eps_med = median_fraction * eps / height if height > 0 and median_fraction > 0 else 0.0

    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    active = ids
    paths = [(int(ids[0]),)]                                # node ids from the root, per active node
    act_lo = np.zeros((1, d), np.int64)
    act_hi = (dhi - dlo)[None, :].astype(np.int64)
    spent = np.zeros(1)
    node_of = np.zeros(n, dtype=np.int64)
    ledger = Ledger()
    leaf_nodes, leaf_hists = [], []
    for depth in range(height + 1):
        m = active.size
        # choose the split dimension: round robin from qi[depth % d], skipping single-code ranges
        widths = act_hi - act_lo
        dims = np.full(m, -1, dtype=np.int64)
        if depth < height:
            for r in range(d):
                j = (depth + r) % d
                pick = (dims < 0) & (widths[:, j] > 0)
                dims[pick] = j
        split = dims >= 0
        # leaves: noisy histograms
        leaf_idx = np.flatnonzero(~split)
        if leaf_idx.size:
            true_hist = _group_hist(node_of, s, m, S)[leaf_idx]
            eps_leaf = eps - spent[leaf_idx]
            ledger = Ledger.concat(ledger, Ledger.from_calls("laplace", eps_leaf, "path", detail=_LEAF_DETAIL,
                                                paths=[paths[li] for li in leaf_idx.tolist()]))
            noisy = np.empty(true_hist.shape)
            for e in np.unique(eps_leaf):                        # usually one group: all leaves at depth `height`
                rows = eps_leaf == e
                noisy[rows] = discrete_laplace(true_hist[rows], eps=float(e), sensitivity=1, rng=gen).reshape(-1, S)
            leaf_nodes.extend(active[leaf_idx].tolist())
            leaf_hists.append(noisy)
        if not split.any():
            break
        sp = np.flatnonzero(split)
        thr = np.zeros(sp.size, dtype=np.int64)
        for j in np.unique(dims[sp]):
            sel = sp[dims[sp] == j]
            lo, hi = act_lo[sel, j], act_hi[sel, j]
            if eps_med > 0:
                local = np.full(m, -1, dtype=np.int64)
                local[sel] = np.arange(sel.size)
                recs = np.flatnonzero(local[node_of] >= 0)
                chosen = _private_medians(Z[recs, j], local[node_of[recs]], sel.size, lo, hi, eps_med, gen)
                detail = f"private median on {qi[j]!r} (depth {depth})"
                ledger = Ledger.concat(ledger, Ledger.from_calls("exponential", np.full(sel.size, eps_med), "path",
                                                    paths=[paths[node] for node in sel.tolist()], detail=detail))
            else:
                chosen = (lo + hi - 1) // 2
            thr[np.searchsorted(sp, sel)] = chosen
        dsp = dims[sp]
        rows = np.arange(sp.size)
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        hi_l[rows, dsp] = thr
        lo_r[rows, dsp] = thr + 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth + 1)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth + 1)
        tree.split(active[sp], dsp, thr + dlo[dsp], left_ids, right_ids)
        pos = np.full(m, -1, dtype=np.int64)
        pos[sp] = rows
        g2 = pos[node_of]
        # every record is in a split node or in a leaf; only those in split nodes move on
        keep = g2 >= 0
        new_node = np.full(n, -1, dtype=np.int64)
        right = Z[np.arange(n), dsp[np.maximum(g2, 0)]] > thr[np.maximum(g2, 0)]
        new_node[keep] = 2 * g2[keep] + right[keep]
        spent = np.repeat(spent[sp] + eps_med, 2)
        paths = [paths[i] + (int(c),) for i, pair in zip(sp.tolist(), zip(left_ids.tolist(), right_ids.tolist()))
                 for c in pair]
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
        # drop records whose node became a leaf
        Z, s, X = Z[keep], s[keep], X[keep]
        node_of = new_node[keep]
        n = node_of.size
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    out = tree.finish(leaf_nodes, hists)
    out["ledger"] = ledger
    return out
