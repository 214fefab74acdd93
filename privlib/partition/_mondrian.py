"""Mondrian multidimensional partitioning (LeFevre, DeWitt & Ramakrishnan, ICDE 2006)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Hashable

import numpy as np
import pandas as pd

from .._validation import check_has_order, check_in, check_int, check_probability
from ..requirements import KAnonymity, LDiversity, TCloseness
from ._decomposition import Decomposition, _group_hist, _Tree
from ._encoding import _INT_LIMIT, _check_common, _sensitive, qi_codes, root_box


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
    qi = _check_common(df, qi, sa)
    n = len(df)
    k = check_int(k, "k", minimum=1)
    if k > n:
        raise ValueError(f"k: expected an integer <= the number of records ({n}), got {k}")
    X = qi_codes(df, qi)
    values, s = _sensitive(df, sa, sa_values)
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
    dlo, dhi = root_box(X, qi, domain=domain)
    d = X.shape[1]
    width = (dhi - dlo + 1).astype(np.int64)
    Z = X - dlo                                            # codes from 0
    root = np.bincount(s, minlength=S).astype(float)
    root_p = root / n
    # the privacy models as requirement objects, checked on each candidate child (LeFevre et al.'s
    # "allowable" cut: both children satisfy every requirement)
    k_req = KAnonymity(k)
    l_req = LDiversity(l, kind=l_kind) if l is not None else None
    t_req = TCloseness(t, distance=distance) if t is not None else None
    child_t = t is not None and t_rule == "strict"      # strict: t on the children of a split
    node_t = t is not None and t_rule == "source"       # source: t on the node being split

    def ok(hist, cnt):
        good = k_req.satisfied(cnt)
        if l_req is not None:
            good &= l_req.satisfied(cnt, hist)
        if child_t:
            good &= t_req.satisfied(cnt, hist, q=root_p)
        return good

    tree = _Tree(d)
    ids = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    node_of = np.zeros(n, dtype=np.int64)       # local index into the active list
    active = ids                                 # tree ids of the active nodes
    act_lo = dlo[None, :] - dlo                  # boxes in 0-based codes
    act_hi = dhi[None, :] - dlo
    rec = np.arange(n)                           # records still in active nodes
    leaf_nodes, leaf_hists = [], []
    depth = 0
    while active.size:
        m = active.size
        g = node_of[rec]
        srec = s[rec]
        cnt = np.bincount(g, minlength=m)
        hist = _group_hist(g, srec, m, S).astype(float)
        can = np.ones(m, dtype=bool) if max_height is None else np.full(m, depth < max_height)
        if node_t:      # "nodes having EMD (compared to root) larger than t will not be split further"
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
            if m * W < _INT_LIMIT:                 # one int64 key (node, code): fits, checked in Python ints
                base = np.arange(m, dtype=np.int64) * W
                sk = np.sort(g * W + zj)
                at = lambda pos: sk[pos] - base        # noqa: E731 - the codes at sorted positions
            else:                                  # wide codes (e.g. nanosecond timestamps): no combined key
                sz = zj[np.lexsort((zj, g))]
                at = lambda pos: sz[pos]               # noqa: E731
            vmin = at(starts)
            vmax = at(starts + cnt - 1)
            spread[:, j] = (vmax - vmin) / max(W - 1, 1)
            med = at(starts + (cnt - 1) // 2)
            side_le = zj <= med[g]
            side_lt = zj < med[g]
            n_le = np.bincount(g[side_le], minlength=m)    # counted from the records themselves
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
        # preference: widest normalised spread first (stable: first listed on ties)
        order = np.argsort(-spread, axis=1, kind="stable")
        for r in range(d):
            j = order[:, r]
            okj = cand_ok[np.arange(m), j] & (best_dim < 0)
            best_dim[okj] = j[okj]
            best_thr[okj] = cand_thr[np.arange(m), j][okj]
            best_rank[okj] = r
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
        lo_l, hi_l = act_lo[sp].copy(), act_hi[sp].copy()
        lo_r, hi_r = act_lo[sp].copy(), act_hi[sp].copy()
        rows = np.arange(sp.size)
        hi_l[rows, dims] = thr
        lo_r[rows, dims] = thr + 1
        depth += 1
        left_ids = tree.add(lo_l + dlo, hi_l + dlo, depth)
        right_ids = tree.add(lo_r + dlo, hi_r + dlo, depth)
        tree.split(active[sp], dims, thr + dlo[dims], left_ids, right_ids)
        # move records: new local index = 2 * position-in-sp + (right)
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
    params = dict(model="mondrian", k=k, l=l, t=t, t_rule=t_rule if t is not None else None, l_kind=l_kind,
                  distance=distance, max_height=max_height, n=n)
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)

