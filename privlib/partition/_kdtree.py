"""The differentially private kd-tree (Cormode et al., ICDE 2012) and its private medians."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validation import as_generator, check_epsilon, check_int, check_probability, warn_privacy_leak
from ..accounting import Ledger
from ..mechanisms import discrete_laplace
from ..requirements import Requirement, as_requirements
from ._cells import _cells_or_records, _qi_box, _sensitive_codes
from ._decomposition import Decomposition, _group_hist, _Tree
from ._encoding import _INT_LIMIT, _check_common

#: ledger detail of a leaf histogram (the node is the last id of the entry's path)
_LEAF_DETAIL = "leaf histogram: one exact discrete Laplace count per SA value, disjoint cells (parallel)"


def _distinct_count(z, width):
    """Number of distinct values of the codes ``z`` (below ``width``)."""
    if width <= max(4 * z.size, 1 << 16):
        return int(np.count_nonzero(np.bincount(z, minlength=width)))
    return int(np.unique(z).size)


def _median_segments(z, k, K, lo, hi, w=None):
    """The candidate cut points of ``K`` nodes as runs of equal utility (piecewise constant).

    Node ``i`` holds the records ``k == i`` with codes ``z`` (0-based) and cuts
    ``c in [lo[i], hi[i] - 1]`` (left child: codes ``<= c``); the median utility
    ``-| #{x <= c} - n_i / 2 |`` only changes at the records' distinct codes, so the cuts
    fall into at most ``1 + distinct codes`` runs: ``[lo, u_1 - 1]`` (count 0),
    ``[u_r, u_{r+1} - 1]`` (count ``C_r``, the records ``<= u_r``), ..., ``[u_last, hi - 1]``.
    With ``w`` each entry stands for ``w`` records (distinct rows and their multiplicities):
    the same runs and counts as the records they stand for.

    Returns
    -------
    seg_node, seg_start, seg_len, seg_util : ndarrays (runs,)
        Runs of positive length only, ordered by node; memory O(records + nodes), not
        O(nodes x domain width).
    """
    cnt = np.bincount(k, minlength=K) if w is None else np.bincount(k, weights=w, minlength=K).astype(np.int64)
    width = int(hi.max(initial=0)) + 1 if K else 1         # codes are 0-based: z <= hi < width
    if K * width <= max(4 * k.size, 1 << 16):
        # narrow domain: a (nodes x codes) count table no larger than a few times the records
        key = k * width
        key += z
        table = np.bincount(key, weights=w, minlength=K * width).reshape(K, width)
        del key
        if w is not None:
            table = table.astype(np.int64)                 # integer-valued sums, exact below 2**53
        pk, pv = np.nonzero(table)                         # distinct (node, code) pairs, sorted
        C = np.cumsum(table, axis=1)[pk, pv]               # records <= pv in the node
    elif K * (V := _distinct_count(z, width)) <= max(4 * k.size, 1 << 16):
        # many codes but few distinct ones: the same table on the ranks of the distinct codes
        if width <= max(4 * z.size, 1 << 16):               # ranks by a lookup table, not a search
            present = np.bincount(z, minlength=width) > 0
            vals = np.flatnonzero(present)
            r = (np.cumsum(present) - 1).astype(np.uint32 if V < 2 ** 32 else np.int64)[z]
        else:
            vals = np.unique(z)
            r = np.searchsorted(vals, z)
        key = k * V
        key += r
        del r
        table = np.bincount(key, weights=w, minlength=K * V).reshape(K, V)
        del key
        if w is not None:
            table = table.astype(np.int64)
        pk, pr = np.nonzero(table)
        C = np.cumsum(table, axis=1)[pk, pr]
        pv = vals[pr]
    else:
        if K * width < _INT_LIMIT:                         # one int64 sort key (checked in Python ints)
            order = np.argsort(k * width + z, kind="stable")
        else:
            order = np.lexsort((z, k))                    # by node, then code (stable)
        k, z = k[order], z[order]
        cw = None if w is None else np.concatenate([[0], np.cumsum(w[order])])
        first = np.ones(k.size, dtype=bool)
        first[1:] = (k[1:] != k[:-1]) | (z[1:] != z[:-1])
        starts = np.flatnonzero(first)
        pk, pv = k[starts], z[starts]                      # distinct (node, code) pairs, sorted
        last = np.append(starts[1:], k.size) - 1           # last record of each pair
        if cw is None:
            C = last + 1 - np.searchsorted(k, pk, side="left")     # records <= pv in the node
        else:
            C = cw[last + 1] - cw[np.searchsorted(k, pk, side="left")]
    pk = pk.astype(np.int64)
    pv = pv.astype(np.int64)
    table = None
    # the runs in node order, written in place (no concatenation, no sort): node i's first run
    # (the cuts below its smallest code), then one run per distinct code of the node, in code order
    K_, P = int(K), pk.size
    first_pos = np.arange(K_, dtype=np.int64)
    first_pos += np.searchsorted(pk, first_pos, side="left")            # + the pairs of the nodes before
    pos = np.arange(1, P + 1, dtype=np.int64)
    pos += pk
    seg_node = np.empty(K_ + P, dtype=np.int64)
    seg_start = np.empty(K_ + P, dtype=np.int64)
    seg_len = np.empty(K_ + P, dtype=np.int64)
    seg_util = np.empty(K_ + P)
    seg_node[first_pos] = np.arange(K_)
    seg_node[pos] = pk
    seg_start[first_pos] = lo
    seg_start[pos] = pv
    same = np.zeros(P, dtype=bool)
    same[:-1] = pk[1:] == pk[:-1]
    nxt = np.append(pv[1:], 0)
    seg_len[pos] = np.where(same, nxt - 1, hi[pk] - 1)                  # the runs' last cuts
    del same, nxt
    has = cnt > 0
    first_code = np.zeros(K_, dtype=np.int64)
    first_code[pk[::-1]] = pv[::-1]                        # smallest code of each node
    seg_len[first_pos] = np.where(has, first_code - 1, hi - 1)           # a node without records: one run
    seg_len -= seg_start
    seg_len += 1
    seg_util[first_pos] = -np.abs(0.0 - cnt / 2.0)
    seg_util[pos] = -np.abs(C.astype(float) - cnt[pk] / 2.0)
    keep = seg_len > 0
    return seg_node[keep], seg_start[keep], seg_len[keep], seg_util[keep]


def _segment_probabilities(seg_node, seg_len, seg_util, K, eps, sensitivity=1.0):
    """Probability of each run under the exponential mechanism: ``len * exp(eps u / (2 du))``
    normalised within its node (every cut of a run has probability ``p_run / len``)."""
    logw = eps * seg_util / (2.0 * sensitivity) + np.log(seg_len.astype(float))
    top = np.full(K, -np.inf)
    np.maximum.at(top, seg_node, logw)
    w = np.exp(logw - top[seg_node])
    return w / np.bincount(seg_node, weights=w, minlength=K)[seg_node]


def _private_medians(z, k, K, lo, hi, eps, gen, w=None):
    """One exponential-mechanism median per node, drawn run by run (see :func:`_median_segments`).

    Exactly the distribution of the dense draw over every integer cut
    (:func:`privlib.mechanisms.exponential_rows` on ``-|#{x <= c} - n/2|``, sensitivity 1):
    a run is chosen with weight ``length * exp(eps u / 2)`` by the Gumbel-max trick
    (:func:`privlib.mechanisms.exponential_rows`' method), then a cut uniformly inside it.
    """
    seg_node, seg_start, seg_len, seg_util = _median_segments(z, k, K, lo, hi, w)
    score = eps * seg_util / 2.0 + np.log(seg_len.astype(float)) + gen.gumbel(size=seg_node.size)
    # the best run of each node (the first of equal scores): the runs are grouped by node, so a
    # maximum per group and the first position reaching it (no sort)
    starts = np.searchsorted(seg_node, np.arange(K), side="left")
    top = np.maximum.reduceat(score, starts)
    at_top = np.flatnonzero(score == np.repeat(top, np.diff(np.append(starts, score.size))))
    best = at_top[np.searchsorted(at_top, starts, side="left")]
    return seg_start[best] + gen.integers(0, seg_len[best])


def _check_nodes(codes, node, lower, upper):
    """The arrays of :func:`private_medians` / :func:`median_cut_probabilities`, checked."""
    arrs = []
    for name, a in (("codes", codes), ("node", node), ("lower", lower), ("upper", upper)):
        a = np.asarray(a)
        if a.ndim != 1 or not (a.size == 0 or np.issubdtype(a.dtype, np.integer)):
            raise ValueError(f"{name}: expected a 1-d array of integers, got shape {a.shape} and dtype {a.dtype}")
        arrs.append(a.astype(np.int64))
    z, k, lo, hi = arrs
    if z.shape != k.shape:
        raise ValueError(f"codes and node: expected one length, got {z.size} and {k.size}")
    if lo.shape != hi.shape or lo.size == 0:
        raise ValueError(f"lower and upper: expected one non-empty length, got {lo.size} and {hi.size}")
    if np.any(lo < 0) or np.any(hi <= lo):
        raise ValueError("lower, upper: expected 0 <= lower < upper (each node has at least one cut)")
    if k.size and (k.min() < 0 or k.max() >= lo.size):
        raise ValueError(f"node: expected node indices in [0, {lo.size - 1}]")
    if np.any(z < lo[k]) or np.any(z > hi[k]):
        raise ValueError("codes: expected every code inside its node's range [lower, upper]")
    return z, k, lo, hi


def private_medians(codes: ArrayLike, node: ArrayLike, lower: ArrayLike, upper: ArrayLike, *, eps: float,
                    rng: int | np.random.Generator) -> np.ndarray:
    """One exponential-mechanism median cut per node (Cormode et al. 2012, Section 4.1).

    Node ``i`` holds the records ``node == i`` with codes ``codes`` in ``[lower[i], upper[i]]``;
    its candidate cuts are ``c in [lower[i], upper[i] - 1]`` (left child: codes ``<= c``) with
    utility ``-| #{x <= c} - n_i / 2 |`` (sensitivity 1), drawn with ``eps`` -- exactly the
    dense draw of :func:`privlib.mechanisms.exponential_rows` over every cut, but run by run
    (the utility is constant between consecutive record codes) in O(records + nodes) memory.
    This is the split rule of :func:`dp_kdtree`.

    Parameters
    ----------
    codes, node : array_like of int
        Each record's non-negative code along the split QI, and its node index.
    lower, upper : array_like of int
        Each node's code range (``0 <= lower < upper``).
    eps : float
        Budget of each node's draw, > 0.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    numpy.ndarray
        One int64 cut per node.

    Raises
    ------
    ValueError
        For arrays of bad shape or range, or a bad ``eps``.

    Examples
    --------
    Six records in one node of codes 0..10; every cut from 2 to 7 leaves three records on
    each side (utility 0), so a large ``eps`` picks one of them:

    >>> cuts = private_medians([1, 1, 2, 8, 9, 9], [0] * 6, [0], [10], eps=50.0, rng=0)
    >>> bool(2 <= cuts[0] <= 7)
    True
    """
    eps = check_epsilon(eps)
    z, k, lo, hi = _check_nodes(codes, node, lower, upper)
    return _private_medians(z, k, lo.size, lo, hi, eps, as_generator(rng, release=True))


def median_cut_probabilities(codes: ArrayLike, node: ArrayLike, lower: ArrayLike, upper: ArrayLike, *,
                             eps: float) -> list[np.ndarray]:
    """The distribution :func:`private_medians` draws from, cut by cut, for every node.

    Parameters
    ----------
    codes, node, lower, upper : array_like of int
        As for :func:`private_medians`.
    eps : float
        Budget of each node's draw, > 0.

    Returns
    -------
    list of numpy.ndarray
        Per node ``i``, the probabilities of the cuts ``lower[i] .. upper[i] - 1`` (summing to 1).

    Raises
    ------
    ValueError
        As for :func:`private_medians`.

    Examples
    --------
    >>> p = median_cut_probabilities([0, 1, 2, 3], [0, 0, 0, 0], [0], [3], eps=1.0)[0]
    >>> p.round(3).tolist()
    [0.274, 0.452, 0.274]
    """
    eps = check_epsilon(eps)
    z, k, lo, hi = _check_nodes(codes, node, lower, upper)
    K = lo.size
    seg_node, seg_start, seg_len, seg_util = _median_segments(z, k, K, lo, hi)
    p = _segment_probabilities(seg_node, seg_len, seg_util, K, eps)
    out = [np.zeros(int(hi[i] - lo[i])) for i in range(K)]
    for i, a, ln, pp in zip(seg_node.tolist(), seg_start.tolist(), seg_len.tolist(), p.tolist()):
        out[i][a - lo[i]:a - lo[i] + ln] = pp / ln
    return out


def dp_kdtree(df: pd.DataFrame, qi: Sequence[str], sa: str, *, eps: float, height: int,
              rng: int | np.random.Generator, median_fraction: float = 0.3,
              domain: Mapping[str, tuple[int, int]] | None = None,
              sa_values: Sequence[Hashable] | None = None, requirements: Sequence[Requirement] = ()) -> Decomposition:
    """A differentially private kd-tree (Cormode et al. ICDE 2012) with noisy leaf histograms.

    Structure: a complete binary tree of depth ``height``; the node at depth ``i`` splits on
    the QIs in round-robin order (``qi[i mod d]``, skipping a QI whose range in the node is
    a single code; a node whose box is a single cell stops early).  The shape depends only
    on public information (the domain, the height) and on the private split points.

    Private median (the exponential-mechanism median of Cormode et al. 2012, Section 4.1,
    on a discrete domain): the candidates are the integer cut points ``c`` of the node's
    range ``[lo, hi - 1]`` along the split QI (left child ``<= c``); candidate ``c`` has
    utility ``-| #{x <= c} - n_node / 2 |`` (adding or removing one record changes it by at
    most 1/2; calibrated to sensitivity 1, as Cormode et al., so each median is in fact
    ``eps_median / 2``-DP while the ledger charges ``eps_median``: the safe side) and is drawn from the exponential mechanism's distribution
    (:func:`privlib.mechanisms.exponential_probabilities`) with ``eps_median``.  The utility
    is constant between consecutive record codes, so the draw picks such a run of cuts with
    weight ``length * exp(eps_median * u / 2)`` (Gumbel-max, every node of a level at once)
    and then a cut uniformly inside it: the same distribution in O(records + nodes) memory,
    whatever the domain's width.

    Budget split (recorded in ``Decomposition.ledger``, a :class:`privlib.accounting.Ledger`
    of ``"path"`` entries whose path is the node ids from the root; checked against ``eps``):

    * ``eps_median = median_fraction * eps / height`` per split, on each of the ``height``
      levels of inner nodes -- sequential composition along a root-to-leaf path, parallel
      across the disjoint nodes of one level;
    * ``eps_count = eps - (median budget spent on the leaf's path)`` for the leaf: Laplace
      noise of scale ``1 / eps_count`` on each of the leaf's SA counts (a record falls in
      one cell of one leaf: sensitivity 1, parallel over cells, one ledger entry per leaf).
      A leaf that stopped early therefore gets the unspent median budget too, so every path
      spends exactly ``eps``.

    Parameters
    ----------
    df : pandas.DataFrame
    qi : sequence of str
        Ordered integer codes (see :func:`qi_codes`).
    sa : str
        Sensitive attribute.
    eps : float
        Total budget, > 0.
    height : int
        Depth of the leaves, 0 <= height <= 30 (``2**height`` leaves at most).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    median_fraction : float in [0, 1)
        Share of ``eps`` spent on split points (0.3 by default; 0 gives a tree of exact
        domain midpoints, a data-independent quadtree-like split).
    domain : dict, optional
        ``{qi: (low, high)}`` integer codes, from public knowledge (a data dictionary, a
        hierarchy).  Without it the root box is the data's min and max, published outside the
        budget: a :class:`privlib.PrivacyLeakWarning` says so at every call.
    sa_values : sequence, optional
        The public SA value set.  Without it the values present in the data are used (and
        published as the histogram columns): a :class:`privlib.PrivacyLeakWarning` says so.
    requirements : sequence of Requirement, optional
        Syntactic privacy models (:class:`privlib.requirements.Requirement` objects, e.g.
        ``KAnonymity(10)``), read on the **noisy** leaf histograms only: each leaf's published
        counts clipped at 0 are its class's counts, their sum its size, and the reference
        distribution is the sum of every leaf's clipped counts (never the true table's).  This is
        post-processing of the release (no budget, no change to the tree or the noise: a split
        undone because of an exact count would depend on the data outside the ledger), so the
        answer is about the published counts, not a guarantee on the true ones -- the guarantee
        of the release is its ``eps``.  ``params["requirements"]`` holds the labels and
        ``params["requirements_met"]`` one bool per leaf (leaf order): every requirement holds
        on that leaf's noisy counts.

    Returns
    -------
    Decomposition
        Noisy (float, possibly negative) leaf histograms and the budget ledger.

    Raises
    ------
    ValueError, TypeError
        Bad arguments (named in the message); ``domain`` bounds that are not integers.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": range(16), "s": list("ab") * 8})
    >>> dec = dp_kdtree(df, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 15)},
    ...                 sa_values=("a", "b"))
    >>> dec.n_leaves, dec.path_spend().round(6).tolist()
    (4, [1.0, 1.0, 1.0, 1.0])

    A requirement is read on the noisy counts (post-processing):

    >>> from privlib.requirements import KAnonymity
    >>> dec = dp_kdtree(df, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 15)},
    ...                 sa_values=("a", "b"), requirements=[KAnonymity(1)])
    >>> dec.params["requirements"], len(dec.params["requirements_met"])
    (('1-anonymity',), 4)
    """
    return _dp_kdtree(df, qi, sa, None, eps=eps, height=height, rng=rng, median_fraction=median_fraction,
                      domain=domain, sa_values=sa_values, requirements=requirements)


def _noisy_requirements(dec, extra):
    """Per leaf of ``dec``: whether every requirement of ``extra`` holds on its noisy counts
    (clipped at 0; reference: the clipped counts' total distribution).  Post-processing only."""
    counts = np.maximum(dec.histograms, 0.0)
    sizes = counts.sum(axis=1)
    total = counts.sum(axis=0)
    q = total / total.sum() if total.sum() > 0 else np.full(counts.shape[1], 1.0 / counts.shape[1])
    met = np.ones(counts.shape[0], dtype=bool)
    for r in extra:
        met &= np.asarray(r.satisfied(sizes, counts, q=q), dtype=bool)
    return tuple(bool(v) for v in met)


def _dp_kdtree(df, qi, sa, weights, *, eps, height, rng, median_fraction, domain, sa_values, requirements=()):
    """:func:`dp_kdtree`, its checks and its tree; with ``weights`` (int64, one per row of ``df``,
    >= 1) each row stands for that many records (:mod:`privlib.scale` passes distinct rows)."""
    qi = _check_common(df, qi, sa)
    eps = check_epsilon(eps)
    height = check_int(height, "height", minimum=0, maximum=30)
    median_fraction = check_probability(median_fraction, "median_fraction", high_open=True)
    extra = as_requirements(requirements)
    gen = as_generator(rng, release=True)
    zcols, dlo, dhi = _qi_box(df, qi, domain)        # the QIs' codes, one compact column each
    values, s = _sensitive_codes(df, sa, sa_values)
    if domain is None:
        warn_privacy_leak("dp_kdtree: no public `domain` was given, so the root box is the data's min and max of "
                          "every quasi-identifier, published outside the privacy budget; pass "
                          "domain={quasi-identifier: (low, high)} from public knowledge")
    if sa_values is None:
        warn_privacy_leak("dp_kdtree: no public `sa_values` was given, so the set of sensitive values present in the "
                          "data is published (the histogram columns) outside the privacy budget; pass "
                          "sa_values=[...], the sensitive attribute's possible values from public knowledge")
    S = len(values)
    d = len(zcols)
    # the tree reads the records only through counts: run it on the distinct (QI codes, SA) rows,
    # each weighted by how many records it stands for (the same counts, draws and noise)
    # (the cell path); when almost every record is its own cell, on the records (the record path)
    Z, s, w = _cells_or_records(zcols, dlo, dhi, s, S, weights)
    n = s.size
    eps_med = median_fraction * eps / height if height > 0 and median_fraction > 0 else 0.0

    tree = _Tree(d, dlo, dhi)
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
            true_hist = _group_hist(node_of, s, m, S, w)[leaf_idx].astype(np.int64)
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
                if sel.size == m:                 # every active node splits on j: every record, as it is
                    chosen = _private_medians(Z[j], node_of, m, lo, hi, eps_med, gen, w)   # compact codes
                else:
                    local = np.full(m, -1, dtype=np.int64)
                    local[sel] = np.arange(sel.size)
                    recs = np.flatnonzero(local[node_of] >= 0)
                    chosen = _private_medians(Z[j][recs], local[node_of[recs]], sel.size, lo, hi,
                                              eps_med, gen, None if w is None else w[recs])
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
        if sp.size == m and (dsp == dsp[0]).all():   # every node splits, on one QI: no bookkeeping
            j = int(dsp[0])
            new_node = 2 * node_of
            new_node += Z[j] > thr[node_of]
            keep = None
        else:
            pos = np.full(m, -1, dtype=np.int64)
            pos[sp] = rows
            g2 = pos[node_of]
            # every record is in a split node or in a leaf; only those in split nodes move on
            keep = g2 >= 0
            new_node = np.full(n, -1, dtype=np.int64)
            right = np.zeros(n, dtype=bool)
            rdim = np.where(keep, dsp[np.maximum(g2, 0)], -1)
            for j in np.unique(dsp).tolist():
                rows_j = np.flatnonzero(rdim == j)
                right[rows_j] = Z[j][rows_j] > thr[g2[rows_j]]
            new_node[keep] = 2 * g2[keep] + right[keep]
        spent = np.repeat(spent[sp] + eps_med, 2)
        paths = [paths[i] + (int(c),) for i, pair in zip(sp.tolist(), zip(left_ids.tolist(), right_ids.tolist()))
                 for c in pair]
        active = np.column_stack([left_ids, right_ids]).ravel()
        act_lo = np.stack([lo_l, lo_r], axis=1).reshape(-1, d)
        act_hi = np.stack([hi_l, hi_r], axis=1).reshape(-1, d)
        # drop records whose node became a leaf
        if keep is not None and not keep.all():
            Z = [z[keep] for z in Z]
            s = s[keep]
            w = None if w is None else w[keep]
            new_node = new_node[keep]
        node_of = new_node
        n = node_of.size
    hists = np.concatenate(leaf_hists) if leaf_hists else np.zeros((0, S))
    ledger.check(eps)
    params = dict(model="dp_kdtree", eps=eps, height=height, median_fraction=median_fraction,
                  n=len(df) if weights is None else int(weights.sum()))
    dec = tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, ledger, params)
    if extra:
        dec.params["requirements"] = tuple(r.label() for r in extra)
        dec.params["requirements_met"] = _noisy_requirements(dec, extra)
    return dec
