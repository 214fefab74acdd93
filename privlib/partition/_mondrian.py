"""Mondrian multidimensional partitioning (LeFevre, DeWitt & Ramakrishnan, ICDE 2006)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Hashable

import numpy as np
import pandas as pd

from .._validation import check_has_order, check_in, check_int, check_probability
from ..requirements import KAnonymity, LDiversity, Requirement, TCloseness, as_requirements
from ._cells import _cells_or_records, _count_codes, _qi_box, _sensitive_codes, _small_uint
from ._decomposition import Decomposition, _group_hist, _Tree
from ._encoding import _check_common


def mondrian(df: pd.DataFrame, qi: Sequence[str], sa: str, *, k: int, l: int | None = None,
             t: float | None = None, max_height: int | None = None, l_kind: str = "distinct",
             distance: str | None = None, t_rule: str = "strict",
             domain: Mapping[str, tuple[int, int]] | None = None,
             sa_values: Sequence[Hashable] | None = None, requirements: Sequence[Requirement] = ()) -> Decomposition:
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
    requirements : sequence of Requirement, optional
        Further privacy models (:class:`privlib.requirements.Requirement` objects, e.g.
        ``BetaLikeness(1.0)``, ``LDiversity(3, kind="entropy")``) every child of a split must
        satisfy, the reference distribution being the whole table's; ``k``, ``l`` and ``t``
        are shorthands for ``KAnonymity(k)``, ``LDiversity(l, kind=l_kind)`` and
        ``TCloseness(t, distance=distance)``.

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
    >>> from privlib.requirements import BetaLikeness
    >>> mondrian(df, ["x"], "s", k=2, requirements=[BetaLikeness(0.5)]).n_leaves
    1
    """
    return _mondrian(df, qi, sa, None, k=k, l=l, t=t, max_height=max_height, l_kind=l_kind, distance=distance,
                     t_rule=t_rule, domain=domain, sa_values=sa_values, requirements=requirements)


def _mondrian(df, qi, sa, weights, *, k, l, t, max_height, l_kind, distance, t_rule, domain, sa_values,
              requirements=()):
    """:func:`mondrian`, its checks and its tree; with ``weights`` (int64, one per row of ``df``,
    >= 1) each row stands for that many records (:mod:`privlib.scale` passes distinct rows)."""
    qi = _check_common(df, qi, sa)
    n = len(df) if weights is None else int(weights.sum())
    k = _check_k(k, n)
    zcols, dlo, dhi = _qi_box(df, qi, domain)        # the QIs' codes, one compact column each
    values, s = _sensitive_codes(df, sa, sa_values)
    S = len(values)
    rules, params = _rules(df, sa, S, n, k=k, l=l, t=t, max_height=max_height, l_kind=l_kind, distance=distance,
                           t_rule=t_rule, sa_values=sa_values, requirements=requirements)
    rules.root_p = _count_codes(s, S, weights) / n
    # Mondrian reads the records only through counts: run it on the distinct (QI codes, SA) rows,
    # each weighted by how many records it stands for (exactly the same tree, leaves and counts)
    # (the cell path); when almost every record is its own cell, on the records (the record path)
    rows = list(_cells_or_records(zcols, dlo, dhi, s, S, weights))
    del s
    tree, leaf_nodes, hists = _mondrian_cells(rows, S, dlo, dhi, rules, params["max_height"])
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)


def _check_k(k, n):
    k = check_int(k, "k", minimum=1)
    if k > n:
        raise ValueError(f"k: expected an integer <= the number of records ({n}), got {k}")
    return k


def _rules(df, sa, S, n, *, k, l, t, max_height, l_kind, distance, t_rule, sa_values, requirements):
    """The checks of Mondrian's options after the QIs' and SA's (``df[sa]`` gives the SA's dtype
    and, for the ordered distance, its order; ``S`` values, ``n`` records): the :class:`_Rules`
    of an allowed cut (without the root distribution, set by the caller) and the params."""
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
    extra = as_requirements(requirements)
    params = dict(model="mondrian", k=k, l=l, t=t, t_rule=t_rule if t is not None else None, l_kind=l_kind,
                  distance=distance, max_height=max_height, n=n)
    if extra:
        params["requirements"] = tuple(r.label() for r in extra)
    return _Rules(k, l, l_kind, t, distance, t_rule, extra), params


class _Rules:
    """Which cuts are allowed (LeFevre et al.'s "allowable" cut: both children satisfy every
    requirement -- the privacy models as requirement objects, the reference distribution
    ``root_p`` being the whole table's) and which nodes may be split (depth, the source's t
    rule).  One object decides for the in-memory tree and for :mod:`privlib.scale`'s top
    levels grown on a cluster: the same cut from the same counts."""

    def __init__(self, k, l, l_kind, t, distance, t_rule, extra):
        self.k_req = KAnonymity(k)
        self.l_req = LDiversity(l, kind=l_kind) if l is not None else None
        self.t_req = TCloseness(t, distance=distance) if t is not None else None
        self.child_t = t is not None and t_rule == "strict"      # strict: t on the children of a split
        self.node_t = t is not None and t_rule == "source"       # source: t on the node being split
        self.extra = extra
        self.need_hist = l is not None or self.child_t or any(r.needs != "sizes" for r in extra)
        self.root_p = None

    def ok(self, hist, cnt):
        good = self.k_req.satisfied(cnt)
        if self.l_req is not None:
            good &= self.l_req.satisfied(cnt, hist)
        if self.child_t:
            good &= self.t_req.satisfied(cnt, hist, q=self.root_p)
        for r in self.extra:
            good &= r.satisfied(cnt, hist, q=self.root_p)
        return good

    def can(self, cnt, hist, depth, max_height):
        """The nodes that may be split: below ``max_height`` and, with the source's rule, within t
        ("nodes having EMD (compared to root) larger than t will not be split further")."""
        can = np.ones(cnt.size, dtype=bool) if max_height is None else np.full(cnt.size, depth < max_height)
        if self.node_t:
            can &= self.t_req.satisfied(cnt, hist, q=self.root_p)
        return can

    def cut(self, c, n_le, n_lt, h_le, h_lt, hn):
        """``(good, use_lt)`` of nodes of ``c`` records at their median on one QI: ``n_le`` /
        ``n_lt`` records (SA histograms ``h_le`` / ``h_lt``, node's ``hn``) at most / below it:
        whether a cut there is allowed, and whether it is the cut ``< median`` (the more balanced
        of the two allowed ones)."""
        ok_le = (n_le > 0) & (n_le < c) & self.ok(h_le, n_le) & self.ok(None if hn is None else hn - h_le, c - n_le)
        ok_lt = (n_lt > 0) & (n_lt < c) & self.ok(h_lt, n_lt) & self.ok(None if hn is None else hn - h_lt, c - n_lt)
        use_lt = ok_lt & (~ok_le | (np.abs(2 * n_lt - c) < np.abs(2 * n_le - c)))
        return ok_le | ok_lt, use_lt


def _spread(lo, hi, width):
    """Normalised spread of nodes on one QI: ``(largest - smallest code) / (domain width - 1)``."""
    return (hi - lo) / max(int(width) - 1, 1)


def _grow(tree, active, act_lo, act_hi, sp, dims, thr, depth, dlo):
    """Split the active nodes ``sp`` (0-based boxes ``act_lo``/``act_hi``) on ``dims`` at the
    0-based codes ``thr`` (``<= thr`` left): add their children at ``depth`` (the lefts, then the
    rights) and return the next level's ``(active, act_lo, act_hi)``, each left child before its
    right sibling.  The boxes keep their dtype (a tree with root corner ``dlo`` stores them as
    they are: :attr:`_Tree.box_dtype`, a byte per bound for narrow QIs)."""
    d = act_lo.shape[1]
    lo_l, hi_l = act_lo[sp], act_hi[sp]                       # copies (an index array)
    lo_r, hi_r = lo_l.copy(), hi_l.copy()
    rows = np.arange(sp.size)
    hi_l[rows, dims] = thr
    lo_r[rows, dims] = thr + 1
    left_ids = tree.add_offsets(lo_l, hi_l, depth, dlo)
    right_ids = tree.add_offsets(lo_r, hi_r, depth, dlo)
    tree.split(active[sp], dims, thr + dlo[dims], left_ids, right_ids)
    return (np.column_stack([left_ids, right_ids]).ravel(), np.stack([lo_l, lo_r], axis=1).reshape(-1, d),
            np.stack([hi_l, hi_r], axis=1).reshape(-1, d))


#: Nodes per chunk of :func:`_preference` (bounded int64 temporaries on levels of 10^6 nodes).
_ORDER_CHUNK = 1 << 16


def _preference(neg):
    """``np.argsort(neg, axis=1, kind="stable")`` (each node's QIs by ``neg``, the negated
    spreads: widest first, first listed on ties) in the smallest unsigned dtype of ``d``, chunk
    by chunk of nodes."""
    m, d = neg.shape
    out = np.empty((m, d), dtype=_small_uint(d))
    for a in range(0, m, _ORDER_CHUNK):
        out[a:a + _ORDER_CHUNK] = np.argsort(neg[a:a + _ORDER_CHUNK], axis=1, kind="stable")
    return out


def _index_dtype(n):
    return np.int32 if n < 2 ** 31 else np.int64


def _ranks(z):
    """``(vals, ranks)``: the sorted distinct codes of a column and each row's rank among them
    (compact unsigned dtype); a count table when the codes are narrow, a sort otherwise."""
    z = np.asarray(z)
    W = int(z.max()) + 1 if z.size else 1
    if W <= max(4 * z.size, 1 << 16):
        present = np.bincount(z, minlength=W) > 0
        vals = np.flatnonzero(present)
        lut = (np.cumsum(present) - 1).astype(_small_uint(max(vals.size, 1)))
        return vals, lut[z]
    vals, r = np.unique(z, return_inverse=True)
    return vals, r.ravel().astype(_small_uint(max(vals.size, 1)))


def _segment_ranges(starts, ends):
    """The concatenated index ranges ``[starts[i], ends[i])``."""
    lens = ends - starts
    total = int(lens.sum())
    dt = np.int32 if max(total, int(ends.max(initial=0))) < 2 ** 31 else np.int64   # half the traffic
    if total == 0:
        return np.zeros(0, dtype=dt)
    off = np.repeat((starts - np.concatenate([[0], np.cumsum(lens)[:-1]])).astype(dt), lens)
    off += np.arange(total, dtype=dt)
    return off


def _first_above(R, lo, hi, v):
    """Per segment ``i``: the first index ``p`` in ``[lo[i], hi[i])`` with ``R[p] > v[i]``
    (``hi[i]`` if none), ``R`` sorted inside each segment: a bisection run on all segments at
    once, on the ones not yet settled only."""
    lo = lo.astype(np.int64)
    hi = hi.astype(np.int64)
    idx = np.flatnonzero(lo < hi)
    while idx.size:
        a, b = lo[idx], hi[idx]
        mid = (a + b) // 2
        gt = R[mid] > v[idx]
        hi[idx] = np.where(gt, mid, b)
        lo[idx] = np.where(gt, a, mid + 1)
        idx = idx[lo[idx] < hi[idx]]
    return lo


class _Field:
    """One field of a packed layout: ``(word >> shift) & mask`` of one of its uint64 words."""

    def __init__(self, words, k, shift, bits):
        self.words, self.k, self.shift = words, k, np.uint64(shift)
        self.mask = np.uint64((1 << bits) - 1)

    def __getitem__(self, idx):
        return ((self.words[self.k][idx] >> self.shift) & self.mask).astype(np.int64)

    def full(self):
        return (self.words[self.k] >> self.shift & self.mask).view(np.int64)


def _pack(arrays):
    """Pack non-negative integer columns ``{name: (array, bits)}`` into as few uint64 words as
    fit; returns the words and ``{name: (word, shift, bits)}``."""
    words, where, used = [], {}, []
    for name, (a, bits) in arrays.items():
        k = next((i for i, u in enumerate(used) if u + bits <= 64), None)
        if k is None:
            words.append(np.zeros(a.size, dtype=np.uint64))
            used.append(0)
            k = len(words) - 1
        words[k] |= a.astype(np.uint64) << np.uint64(used[k])
        where[name] = (k, used[k], bits)
        used[k] += bits
    return words, where


#: A QI with at most this many distinct codes gets no layout of its own: its ranks ride along in
#: the base order, and its per-node ranges and medians are read from count tables.
_NARROW = 256


class _Layouts:
    """The active rows grouped by node (the active nodes' order, each node a contiguous segment
    ``st[i]:st[i+1]``), in one *base order* and one more order per further wide QI.

    A QI with few distinct codes (at most ``_NARROW``) is a column of ranks in the base order: a
    node's smallest and largest rank are reductions over its segment, its median is read from a
    count table of (node, rank) (cumulative counts and a search: selection, no sort).  A QI with
    many distinct codes is kept sorted by rank inside each node (a *layout*): the first such QI
    orders the base itself, every further one has a layout of its own (row ids, ranks, SA values
    and weights packed in uint64 words), whose ends give the range and whose position the median.
    A split is a stable partition of each parent segment into left then right children, which
    keeps every layout sorted: no sort after the first (a radix sort of each wide QI's ranks), one
    gather per column of the base order and, for the further layouts only, a row-id lookup.
    """

    def __init__(self, ranks, s, w, keep_s):
        u = s.size
        self.unit = w is None
        d = len(ranks)
        self.d = d
        self.narrow = [int(r.max(initial=0)) < _NARROW for r in ranks]
        wide = [j for j in range(d) if not self.narrow[j]]
        self.base = wide[0] if wide else None
        bits = lambda top: max(int(top).bit_length(), 1)         # noqa: E731
        order = None if self.base is None else np.argsort(ranks[self.base], kind="stable")
        take = (lambda a: a) if order is None else (lambda a: a[order])   # noqa: E731
        self.cols = {}                                           # the base order's columns
        for j in range(d):
            if self.narrow[j] or j == self.base:
                self.cols[j] = take(ranks[j])
                ranks[j] = None
        self.cols["S"] = take(s.astype(_small_uint(int(s.max(initial=0)) + 1)))
        if not self.unit:                                        # multiplicities in 4 bytes when they fit
            self.cols["W"] = take(w if int(w.max(initial=0)) >= 2 ** 32 else w.astype(np.uint32))
        if len(wide) > 1:                                        # row ids, to map flags between orders
            idt = np.uint32 if u < 2 ** 32 else np.int64
            self.cols["P"] = np.arange(u, dtype=idt) if order is None else order.astype(idt)
        del order
        self.R = {}
        if self.base is not None:
            self.R[self.base] = self.cols[self.base]
        self.words, self.P, self.S, self.W = {}, {}, {}, {}
        for j in wide[1:]:
            r, ranks[j] = ranks[j], None             # each QI's ranks live until its layout is built
            p = np.argsort(r, kind="stable")
            cols = {"P": (p, bits(u)), "R": (r[p], bits(r.max(initial=0)))}
            if keep_s:
                cols["S"] = (s[p], bits(s.max(initial=0)))
            if not self.unit:
                cols["W"] = (w[p], bits(w.max(initial=0)))
            words, where = _pack(cols)
            del cols, p, r
            self.words[j] = words
            for name, dct in (("P", self.P), ("R", self.R), ("S", self.S), ("W", self.W)):
                if name in where:
                    dct[j] = _Field(words, *where[name])
        self.st = np.array([0, u], dtype=np.int64)
        self.cw_dtype = np.int64 if self.unit or int(w.sum()) >= 2 ** 31 else np.int32
        self.CW = {}
        self._cumw_all()
        self._ranges = {}

    def _cumw_all(self):
        """Cumulative weights along the base order (key "b") and every further layout, with a
        leading 0 (none for unit weights)."""
        if self.unit:
            return
        for key, W in [("b", self.cols["W"])] + [(j, f.full()) for j, f in self.W.items()]:
            cw = np.empty(W.size + 1, dtype=self.cw_dtype)
            cw[0] = 0
            np.cumsum(W, out=cw[1:], dtype=self.cw_dtype)
            self.CW[key] = cw

    def _key(self, j):
        return "b" if self.narrow[j] or j == self.base else j

    def cum(self, key, pos):
        """Records before position ``pos`` of the order ``key`` (int64)."""
        if self.unit:
            return np.asarray(pos, dtype=np.int64)
        return self.CW[key][pos].astype(np.int64)

    def counts(self):
        return self.cum("b", self.st[1:]) - self.cum("b", self.st[:-1])

    def rank_range(self, j):
        """Smallest and largest rank on QI ``j`` of every active node (int64)."""
        if j not in self._ranges:
            st = self.st
            if self.narrow[j]:
                col = self.cols[j]
                rmin = np.minimum.reduceat(col, st[:-1]).astype(np.int64)
                rmax = np.maximum.reduceat(col, st[:-1]).astype(np.int64)
            else:
                R = self.R[j]
                rmin = R[st[:-1]].astype(np.int64)
                rmax = R[st[1:] - 1].astype(np.int64)
            self._ranges[j] = (rmin, rmax)
        return self._ranges[j]

    def median(self, j, nodes, cnt, S, need_hist):
        """Rank of the weighted median (the record at sorted position ``(cnt - 1) // 2``) of each
        node in ``nodes`` on QI ``j``, the records at most / below it and (``need_hist``) their
        SA histograms (else None)."""
        if self.narrow[j]:
            return self._table_median(j, nodes, cnt, S, need_hist)
        key = self._key(j)
        a, b = self.st[nodes], self.st[nodes + 1]
        before = self.cum(key, a)
        target = before + (cnt - 1) // 2 + 1
        if self.unit:
            q = target - 1
        else:
            q = np.searchsorted(self.CW[key], target.astype(self.cw_dtype), side="left") - 1
        R = self.R[j]
        rmed = R[q].astype(np.int64)
        p_le = _first_above(R, q, b, rmed)
        p_lt = _first_above(R, a, q + 1, rmed - 1)
        h_le = h_lt = None
        if need_hist:
            loc = np.arange(nodes.size)
            h_le = self.hist(key, a, p_le, loc, nodes.size, S)
            h_lt = self.hist(key, a, p_lt, loc, nodes.size, S)
        return rmed, self.cum(key, p_le) - before, self.cum(key, p_lt) - before, h_le, h_lt

    def _table_median(self, j, nodes, cnt, S, need_hist):
        """:meth:`median` of a narrow QI: one count table of (node, rank) over each node's rank
        range, cumulative counts, and a search for the median's position (in chunks of nodes
        when the table would exceed a few entries per row)."""
        rmin, rmax = (r[nodes] for r in self.rank_range(j))
        span = rmax - rmin + 1
        a, b = self.st[nodes], self.st[nodes + 1]
        if nodes.size > 1 and int(span.sum()) > max(8 * int((b - a).sum()), 1 << 20):
            h = nodes.size // 2
            parts = [self._table_median(j, nodes[:h], cnt[:h], S, need_hist),
                     self._table_median(j, nodes[h:], cnt[h:], S, need_hist)]
            return tuple(None if p0 is None else np.concatenate([p0, p1]) for p0, p1 in zip(*parts))
        off = np.zeros(nodes.size + 1, dtype=np.int64)
        np.cumsum(span, out=off[1:])
        every = nodes.size == self.st.size - 1                 # every active node: no gather
        idx = None if every else _segment_ranges(a, b)
        r = self.cols[j] if every else self.cols[j][idx]
        wts = None if self.unit else (self.cols["W"] if every else self.cols["W"][idx])
        key = np.repeat(off[:-1] - rmin, b - a)
        key += r
        T = np.bincount(key, weights=wts, minlength=int(off[-1])).astype(np.int64)
        del key
        C = np.cumsum(T)
        before = np.concatenate([[0], C])[off[:-1]]
        pos = np.searchsorted(C, before + (cnt - 1) // 2 + 1, side="left")
        rmed = pos - off[:-1] + rmin
        n_le = C[pos] - before
        n_lt = n_le - T[pos]
        h_le = h_lt = None
        if need_hist:
            loc = np.repeat(np.arange(nodes.size), b - a)
            s = self.cols["S"] if every else self.cols["S"][idx]
            w = np.ones(r.size) if wts is None else wts.astype(float)
            rm = rmed[loc]
            h_le = _group_hist(loc, s, nodes.size, S, w * (r <= rm))
            h_lt = _group_hist(loc, s, nodes.size, S, w * (r < rm))
        return rmed, n_le, n_lt, h_le, h_lt

    def hist(self, key, starts, ends, seg, m, S):
        """SA histograms (float) of the positions ``[starts[i], ends[i])`` of the order ``key``
        ("b" for the base), summed into row ``seg[i]`` of an ``(m, S)`` table."""
        starts, ends = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
        idx = _segment_ranges(starts, ends)
        grp = np.repeat(np.asarray(seg, np.int64), ends - starts)
        if key == "b":
            sv = self.cols["S"][idx]
            wts = np.ones(idx.size) if self.unit else self.cols["W"][idx].astype(float)
        else:
            sv = self.S[key][idx]
            wts = np.ones(idx.size) if self.unit else self.W[key][idx].astype(float)
        return _group_hist(grp, sv, m, S, wts)

    def split(self, sp, dims, rthr, flag):
        """Keep the segments ``sp`` (ascending) and split each in two: rows whose rank on QI
        ``dims[i]`` is ``<= rthr[i]`` first.  ``flag`` is a scratch uint8 array, one per row id."""
        st = self.st
        a, b = st[sp], st[sp + 1]
        n_cur = int(st[-1])
        fb = np.zeros(n_cur, dtype=np.uint8)                      # per base position: 0 drop, 1 left, 2 right
        if self.words:
            flag[:] = 0                                            # per row id, for the further layouts
        for j in np.unique(dims).tolist():
            sel = np.flatnonzero(dims == j)
            if self.narrow[j] or j == self.base:
                col = self.cols[j]
                thr = rthr[sel].astype(col.dtype)                  # ranks of split nodes: >= 0, < 2**bits
                if sel.size == st.size - 1 and sp.size == sel.size:     # every node, on this QI
                    fb[:] = col > np.repeat(thr, b - a)
                    fb += 1
                else:
                    idx = _segment_ranges(a[sel], b[sel])
                    g = np.take(col, idx) > np.repeat(thr, b[sel] - a[sel])
                    g = g.view(np.uint8)
                    g += 1
                    fb[idx] = g
                    del idx, g
                del thr
            else:                                                  # a further layout: by row id
                p = _first_above(self.R[j], a[sel], b[sel], rthr[sel])
                flag[self.P[j][_segment_ranges(a[sel], p)]] = 1
                flag[self.P[j][_segment_ranges(p, b[sel])]] = 2
        if self.words:
            P = self.cols["P"]
            fb += flag[P]                                          # the further layouts' splits
            flag[P] = fb                                           # every split, by row id
        is_l = fb == 1
        nleft = np.add.reduceat(is_l, a, dtype=np.int64) if sp.size else np.zeros(0, np.int64)
        # the children's segments: a stable partition of every parent segment at once; the lefts
        # (in order) fill the left children's positions, the rights the right children's
        new_base = np.concatenate([[0], np.cumsum(b - a)])
        mid = new_base[:-1] + nleft
        lpos = _segment_ranges(new_base[:-1], mid)
        rpos = _segment_ranges(mid, new_base[1:])
        perm = np.empty(lpos.size + rpos.size, dtype=np.int32 if n_cur < 2 ** 31 else np.int64)
        perm[lpos] = np.flatnonzero(is_l)
        del is_l
        perm[rpos] = np.flatnonzero(fb == 2)
        del fb
        for name in list(self.cols):
            self.cols[name] = np.take(self.cols[name], perm)
        del perm
        if self.base is not None:
            self.R[self.base] = self.cols[self.base]
        for j, words in self.words.items():
            f = flag[self.P[j].full()]
            is_l = f == 1
            is_r = f == 2
            del f
            for k in range(len(words)):
                out = np.empty(lpos.size + rpos.size, dtype=np.uint64)
                out[lpos] = words[k][is_l]
                out[rpos] = words[k][is_r]
                words[k] = out
            del is_l, is_r, out
        self._cumw_all()
        self._ranges = {}
        self.st = np.append(np.stack([new_base[:-1], mid], axis=1).ravel(), new_base[-1])


def _mondrian_cells(rows, S, dlo, dhi, rules, max_height, box=None):
    """Mondrian's level-by-level splits on weighted distinct rows (see :func:`mondrian`).

    ``rows``: the caller's list ``[Z, s, w]``, emptied here (the arrays die once the layouts
    hold them): ``Z`` (u, d) 0-based codes (or a list of d code columns), ``s`` SA indices,
    ``w`` multiplicities (None: one record each); ``rules``: the :class:`_Rules` of an allowed cut;
    ``box``: the root's box ``(lo, hi)`` when the rows are one node's of a larger tree (default:
    the domain ``dlo``/``dhi``, whose widths normalise the spreads either way).  Returns the
    :class:`_Tree`, the leaf node ids and their (float) SA histograms.  Ranges, medians and
    child counts are read from :class:`_Layouts`; a QI's median is computed only for the nodes
    that reach it in their order of preference (most nodes: their widest QI only).
    """
    Z, s, w = rows
    rows.clear()
    cols = [Z[:, j] for j in range(Z.shape[1])] if isinstance(Z, np.ndarray) else list(Z)
    if isinstance(Z, list):
        Z.clear()                                  # the caller's list: the columns die with ``cols``
    d = len(cols)
    width = (dhi - dlo + 1).astype(np.int64)
    need_hist = rules.need_hist
    # every QI as the ranks of its distinct codes (medians and cuts are read on the ranks)
    vals, ranks = [], []
    for j in range(d):
        v, r = _ranks(cols[j])
        cols[j] = None
        vals.append(v)
        ranks.append(r)
    del cols, Z
    u = s.size
    lay = _Layouts(ranks, s, w, need_hist)
    del ranks, s, w
    flag = np.zeros(u, dtype=np.uint8)
    tree = _Tree(d, dlo, dhi)
    blo, bhi = (dlo, dhi) if box is None else (np.asarray(box[0], np.int64), np.asarray(box[1], np.int64))
    active = tree.add(blo[None, :].copy(), bhi[None, :].copy(), 0)     # tree ids of the active nodes
    act_lo = (blo[None, :] - dlo).astype(tree.box_dtype)      # boxes in 0-based codes, compact
    act_hi = (bhi[None, :] - dlo).astype(tree.box_dtype)
    leaf_nodes, leaf_hists = [], []
    depth = 0
    while active.size:
        m = active.size
        st = lay.st
        cnt = lay.counts()
        hist = lay.hist("b", st[:-1], st[1:], np.arange(m), m, S) if (need_hist or rules.node_t) else None
        can = rules.can(cnt, hist, depth, max_height)
        neg = np.zeros((m, d))
        for j in range(d):
            rmin, rmax = lay.rank_range(j)
            neg[:, j] = -_spread(vals[j][rmin], vals[j][rmax], width[j])
        # preference: widest normalised spread first (stable: first listed on ties); the first
        # allowed cut in that order is taken
        order = _preference(neg)
        del neg
        best_dim = np.full(m, -1, dtype=np.int64)
        best_thr = np.zeros(m, dtype=np.int64)
        best_rthr = np.zeros(m, dtype=np.int64)
        todo = np.flatnonzero(can)
        for r in range(d):
            if not todo.size:
                break
            jr = order[todo, r]
            for j in np.unique(jr).tolist():
                nodes = todo[jr == j]
                c = cnt[nodes]
                rmed, n_le, n_lt, h_le, h_lt = lay.median(j, nodes, c, S, need_hist)
                good, use_lt = rules.cut(c, n_le, n_lt, h_le, h_lt, hist[nodes] if need_hist else None)
                med = vals[j][rmed]
                g_nodes = nodes[good]
                best_dim[g_nodes] = j
                best_thr[g_nodes] = np.where(use_lt, med - 1, med)[good]
                best_rthr[g_nodes] = np.where(use_lt, rmed - 1, rmed)[good]   # code <= med-1 <=> rank <= rmed-1
            todo = todo[best_dim[todo] < 0]
        split = best_dim >= 0
        # leaves
        leaf_idx = np.flatnonzero(~split)
        leaf_nodes.append(active[leaf_idx])
        if hist is not None:
            leaf_hists.append(hist[leaf_idx])
        else:
            leaf_hists.append(lay.hist("b", st[leaf_idx], st[leaf_idx + 1], np.arange(leaf_idx.size), leaf_idx.size, S))
        if not split.any():
            break
        sp = np.flatnonzero(split)
        depth += 1
        active, act_lo, act_hi = _grow(tree, active, act_lo, act_hi, sp, best_dim[sp], best_thr[sp], depth, dlo)
        lay.split(sp, best_dim[sp], best_rthr[sp], flag)
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    return tree, np.concatenate(leaf_nodes) if leaf_nodes else np.zeros(0, np.int64), hists

