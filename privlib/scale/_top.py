"""dask_mondrian's top levels grown on a cluster, from per-node counts (see
:func:`privlib.scale.dask_mondrian`): the records' states kept on the workers (:class:`_States`)
and the passes over them, the cuts from per-node counts per code, and the numbering of a tree
grown in pieces as one tree."""
from __future__ import annotations

import numpy as np
import pandas as pd

from functools import partial

from ..partition._cells import _cells, _offset, _small_uint
from ..partition._decomposition import _group_hist, _Tree
from ..partition._mondrian import _grow


def _is_dask(data) -> bool:
    return any(c.__module__.split(".")[0] in ("dask", "dask_expr") for c in type(data).__mro__)


def _reduce(data, part_fn, merge_fn, *args):
    """``part_fn(partition, *args)`` on every partition where it lives, the results merged four at
    a time (``merge_fn``) on the workers, the distinct cells' hashes replaced by their number
    (per node) there: only counts leave the cluster (on a pandas frame: the same steps in memory)."""
    if not _is_dask(data):
        return _count_keys(merge_fn(part_fn(data, *args)))
    import dask
    parts = [dask.delayed(part_fn)(p, *args) for p in data.to_delayed()]
    while len(parts) > 1:
        parts = [dask.delayed(merge_fn)(*parts[i:i + 4]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 4)]
    (out,) = dask.compute(dask.delayed(_count_keys)(parts[0]))
    return out


def _count_keys(out):
    """``out["keys"]`` (hashes, nodes) replaced by the number of distinct cells (per node: an array)."""
    keys, nodes = out["keys"]
    return {**out, "keys": int(keys.size) if nodes is None else np.bincount(nodes)}


def _keys(part, cols):
    """The distinct cells of a partition as sorted 64-bit hashes of their rows.  Counting distinct
    hashes counts the distinct cells, up to hash collisions (about one pair in 10^19 rows: at
    10^8 cells, an undercount with probability below 10^-3, which only moves the line between
    the cluster and memory by a cell, never the tree)."""
    return _unique(pd.util.hash_pandas_object(part[cols], index=False).to_numpy()), None


def _first_of_runs(s):
    """Of a sorted array: True where a run of equal values starts."""
    mask = np.empty(s.size, dtype=bool)
    mask[:1] = True
    np.not_equal(s[1:], s[:-1], out=mask[1:])
    return mask


def _unique(keys, nodes=None):
    """``np.unique(keys)`` (with ``nodes``: and ``nodes`` at each key's first occurrence, as
    ``return_index``) by a stable sort: the merges' inputs are runs sorted already, which it
    merges in linear time (NumPy 2's ``np.unique`` of 64-bit keys is many times slower)."""
    if nodes is None:
        s = np.sort(keys, kind="stable")
        return s[_first_of_runs(s)]
    o = np.argsort(keys, kind="stable")
    s = keys[o]
    first = _first_of_runs(s)
    return s[first], nodes[o[first]]


def _pair_keys(h, node):
    """The distinct (node, cell) pairs of records with cell hashes ``h`` (:func:`_keys`) in nodes
    ``node``, as sorted hashes, and each hash's node."""
    return _unique(pd.util.hash_array(h ^ (node.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))), node)


def _merge_keys(parts):
    keys = np.concatenate([p[0] for p in parts])
    if parts[0][1] is None:
        return _unique(keys), None
    return _unique(keys, np.concatenate([p[1] for p in parts]))


def _root_part(part, cols):
    qi, sa = cols[:-1], cols[-1]
    return dict(keys=_keys(part, cols), sa=part[sa].value_counts(dropna=False, sort=False),
                lo=part[qi].min(), hi=part[qi].max())


def _root_merge(*parts):
    return dict(keys=_merge_keys([p["keys"] for p in parts]),
                sa=pd.concat([p["sa"] for p in parts], axis=1).sum(axis=1),
                lo=pd.concat([p["lo"] for p in parts], axis=1).min(axis=1),
                hi=pd.concat([p["hi"] for p in parts], axis=1).max(axis=1))


def _root_counts(data, cols):
    """The whole data's number of distinct ``cols`` rows (:func:`_keys`), records per SA value
    (missing values kept) and smallest and largest value of every other column: one pass, merged
    on the cluster."""
    out = _reduce(data[cols], _root_part, _root_merge, cols)
    sa = out["sa"][out["sa"] > 0].astype(np.int64)
    return dict(cells=out["keys"], sa=sa, lo=out["lo"], hi=out["hi"])


def _summary(data, qi, sa, root):
    """A small pandas frame with the data's dtypes, each QI's smallest and largest value and
    every distinct SA value: the in-memory checks read it as they would read the records."""
    S = len(root["sa"])
    rows = max(S, 2)
    out = {}
    for c in qi:
        if not (isinstance(data[c].dtype, np.dtype) and data[c].dtype.kind in "iu"):
            raise TypeError(f"qi: column {c!r} has dtype {data[c].dtype}; growing the top levels on the cluster "
                            f"(more distinct cells than max_cells) needs plain integer codes")
        v = [root["lo"][c], root["hi"][c]]
        out[c] = pd.Series((v * rows)[:rows], dtype=data[c].dtype)
    vals = list(root["sa"].index)
    out[sa] = pd.Series((vals * 2)[:rows], dtype=data[sa].dtype)
    return pd.DataFrame(out)


def _prepare(part, qi, sa, values, dlo, dhi):
    """One partition's records as the state the levels read, built once where it lives: each
    QI's 0-based codes (smallest unsigned dtype of its width), the SA indices, a 64-bit hash of
    each record's cell (None until a node's cells are counted: :func:`_hashed`) and each
    record's node of the top tree (all at the root)."""
    z = []
    for j, c in enumerate(qi):
        x = part[c].to_numpy()
        if x.size and (int(x.min()) < dlo[j] or int(x.max()) > dhi[j]):      # data changed since it was counted
            raise ValueError(f"data: column {c!r} has values outside [{dlo[j]}, {dhi[j]}], the range counted "
                             f"before the tree was grown (the data changed between passes)")
        z.append(_offset(x, int(dlo[j]), _small_uint(int(dhi[j]) - int(dlo[j]) + 1)))
    s = pd.Index(values).get_indexer(part[sa].to_numpy())
    if (s < 0).any():
        raise ValueError(f"data: column {sa!r} has a value not among the {len(values)} counted before the tree "
                         f"was grown: {part[sa].to_numpy()[np.flatnonzero(s < 0)[0]]!r} (the data changed "
                         f"between passes)")
    s = s.astype(_small_uint(len(values)))
    return z, s, None, np.zeros(len(part), dtype=np.int32)


def _hashed(state):
    """The state with each record's cell hashed (of its codes and SA index, :func:`_keys`)."""
    z, s, h, node = state
    if h is None:
        cols = {f"z{j}": col for j, col in enumerate(z)}
        h = pd.util.hash_pandas_object(pd.DataFrame({**cols, "s": s}, copy=False), index=False).to_numpy()
    return z, s, h, node


def _advance(state, tdim, tthr, tleft, tright):
    """The state with every record of a node split at the last level moved to its child (codes
    ``<= thr`` to the left): one step, the records elsewhere stay."""
    z, s, h, node = state
    node = node.copy()
    rows = np.flatnonzero(tdim[node] >= 0)
    nd = node[rows]
    dims = tdim[nd]
    for j in np.unique(dims).tolist():
        sel = dims == j
        r, n_j = rows[sel], nd[sel]
        node[r] = np.where(z[j][r] <= tthr[n_j], tleft[n_j], tright[n_j])
    return z, s, h, node


def _rows_of(node, loc_of):
    """The records in the nodes ``loc_of >= 0`` and their node's position there."""
    loc = loc_of[node]
    rows = np.flatnonzero(loc >= 0)
    return rows, loc[rows]


def _level_part(state, loc_of, m, S):
    """Per node ``loc_of`` (``m`` of them), from one partition's state: its records' SA counts
    and smallest and largest 0-based code per QI."""
    z, s, _, node = state
    rows, nd = _rows_of(node, loc_of)
    hist = np.bincount(nd * S + s[rows], minlength=m * S).reshape(m, S)
    lo = np.full((m, len(z)), np.iinfo(np.int64).max)
    hi = np.full((m, len(z)), np.iinfo(np.int64).min)
    if rows.size:
        o = np.argsort(nd, kind="stable")
        sorted_nd = nd[o]
        starts = np.flatnonzero(np.r_[True, sorted_nd[1:] != sorted_nd[:-1]])
        present = sorted_nd[starts]
        ro = rows[o]
        for j, col in enumerate(z):
            v = col[ro]
            lo[present, j] = np.minimum.reduceat(v, starts)
            hi[present, j] = np.maximum.reduceat(v, starts)
    return dict(hist=hist, lo=lo, hi=hi)


def _level_merge(*parts):
    return dict(hist=sum(p["hist"] for p in parts), lo=np.minimum.reduce([p["lo"] for p in parts]),
                hi=np.maximum.reduce([p["hi"] for p in parts]))


def _distinct_part(state, loc_of):
    """The distinct cells of the nodes ``loc_of >= 0`` in one partition (:func:`_keys`)."""
    _, _, h, node = state
    rows, nd = _rows_of(node, loc_of)
    return dict(keys=_pair_keys(h[rows], nd))


def _distinct_merge(*parts):
    return dict(keys=_merge_keys([p["keys"] for p in parts]))


def _vtable_part(state, loc_of, cand):
    """Records per (node, 0-based code of the node's candidate QI ``cand``, SA index) of one
    partition (nodes with ``cand`` -1 left out)."""
    z, s, _, node = state
    rows, nd = _rows_of(node, loc_of)
    keep = cand[nd] >= 0
    rows, nd = rows[keep], nd[keep]
    v = np.zeros(rows.size, dtype=np.int64)
    dims = cand[nd]
    for j in np.unique(dims).tolist():
        sel = dims == j
        v[sel] = z[j][rows[sel]]
    return pd.DataFrame({"node": nd, "v": v, "s": s[rows]}).groupby(["node", "v", "s"], sort=False).size()


def _sum_counts(*parts):
    """Count series with the same index levels, summed."""
    out = pd.concat(parts)
    return out.groupby(level=list(range(out.index.nlevels)), sort=False).sum()


def _cells_part(state, pos, widths, S):
    """The distinct (position in a batch, 0-based codes, SA index) rows of the records of the top
    nodes ``pos >= 0`` in one partition, with their counts (:func:`privlib.partition._cells._cells`:
    columns of ``widths`` codes, the first the position)."""
    z, s, _, node = state
    rows, nd = _rows_of(node, pos)
    zcols = [nd.astype(_small_uint(int(widths[0])))] + [col[rows] for col in z]
    return _cells(zcols, np.zeros(len(widths), np.int64), np.asarray(widths, np.int64) - 1, s[rows], S, None,
                  columns=True)


def _cells_merge(widths, S, *parts):
    """Distinct rows from several :func:`_cells_part` results, their counts summed."""
    zcols = [np.concatenate([p[0][j] for p in parts]) for j in range(len(widths))]
    s = np.concatenate([p[1] for p in parts])
    w = np.concatenate([p[2] for p in parts])
    return _cells(zcols, np.zeros(len(widths), np.int64), np.asarray(widths, np.int64) - 1, s, S, w, columns=True)


class _States:
    """The records' states (:func:`_prepare`), one per partition: persisted on the workers for a
    Dask frame (every level one pass over arrays held there: no re-read, no re-hash), in memory
    for a pandas frame."""

    def __init__(self, data, *args):
        self.dask = _is_dask(data)
        if self.dask:
            import dask
            self.parts = list(dask.persist(*[dask.delayed(_prepare)(p, *args) for p in data.to_delayed()]))
        else:
            self.parts = [_prepare(data, *args)]

    def map(self, fn, *args):
        """Every state replaced by ``fn(state, *args)``, where it lives."""
        if self.dask:
            import dask
            self.parts = list(dask.persist(*[dask.delayed(fn)(p, *args) for p in self.parts]))
        else:
            self.parts = [fn(p, *args) for p in self.parts]

    def reduce(self, part_fn, merge_fn, *args, final=None):
        """``part_fn(state, *args)`` on every partition where it lives, the results merged four at
        a time (``merge_fn``) there, then ``final`` (on the workers too): only counts leave."""
        final = final or (lambda x: x)
        if not self.dask:
            return final(merge_fn(*[part_fn(p, *args) for p in self.parts]))
        import dask
        parts = [dask.delayed(part_fn)(p, *args) for p in self.parts]
        while len(parts) > 1:
            parts = [dask.delayed(merge_fn)(*parts[i:i + 4]) if i + 1 < len(parts) else parts[i]
                     for i in range(0, len(parts), 4)]
        (out,) = dask.compute(dask.delayed(final)(parts[0]))
        return out


def _cell_bounds(cnt, p_lb, p_ub):
    """Bounds ``(lb, ub)`` on the distinct cells of the children of a level (siblings side by
    side, ``cnt`` records each) from their parents' bounds (``p_lb``, ``p_ub``, repeated per
    child): a parent's cells are split between its two children, so a child holds at most its
    records and its parent's cells, less what its sibling holds at least -- and at least its
    parent's cells less what its sibling can hold (at least one, with a record).

    >>> _cell_bounds(np.array([5, 4]), np.array([7, 7]), np.array([7, 7]))
    (array([3, 2]), array([5, 4]))
    """
    sib = np.arange(cnt.size) ^ 1
    ub = np.minimum(cnt, p_ub)
    lb = np.maximum(p_lb - ub[sib], np.minimum(cnt, 1))
    ub = np.minimum(ub, p_ub - lb[sib])
    return lb, ub


class _Top:
    """The top levels of a Mondrian tree grown on the cluster: per node its split (``dim`` -1
    for none), 0-based threshold, children, depth and 0-based box."""

    def __init__(self, dlo, dhi):
        self.dim, self.thr, self.left, self.right = [-1], [0], [-1], [-1]
        self.depth = [0]
        self.lo, self.hi = [np.zeros(dlo.size, np.int64)], [dhi - dlo]

    def arrays(self):
        return tuple(np.array(a, dtype=np.int64) for a in (self.dim, self.thr, self.left, self.right))

    def split(self, node, j, thr):
        ids = []
        for side in (0, 1):
            lo, hi = self.lo[node].copy(), self.hi[node].copy()
            if side == 0:
                hi[j] = thr
            else:
                lo[j] = thr + 1
            ids.append(len(self.dim))
            self.dim.append(-1)
            self.thr.append(0)
            self.left.append(-1)
            self.right.append(-1)
            self.depth.append(self.depth[node] + 1)
            self.lo.append(lo)
            self.hi.append(hi)
        self.dim[node], self.thr[node], (self.left[node], self.right[node]) = j, thr, ids
        return ids


def _top_levels(data, qi, sa, max_cells, root, *, k, l, t, max_height, l_kind, distance, t_rule, domain,
                sa_values, requirements):
    """:func:`dask_mondrian` when the distinct cells do not fit: the top levels on the cluster,
    each node's subtree in memory once its cells fit, the pieces numbered as one tree."""
    from ..partition._cells import _qi_box, _sensitive_codes
    from ..partition._encoding import _check_common
    from ..partition._mondrian import _check_k, _mondrian_cells, _rules, _spread

    summary = _summary(data, qi, sa, root)
    qi = _check_common(summary, qi, sa)
    n = int(root["sa"].sum())
    k = _check_k(k, n)
    _, dlo, dhi = _qi_box(summary, qi, domain)
    values, s_root = _sensitive_codes(summary.iloc[:len(root["sa"])], sa, sa_values)
    S = len(values)
    rules, params = _rules(summary, sa, S, n, k=k, l=l, t=t, max_height=max_height, l_kind=l_kind,
                           distance=distance, t_rule=t_rule, sa_values=sa_values, requirements=requirements)
    root_hist = np.bincount(s_root, weights=root["sa"].to_numpy(np.float64), minlength=S)
    rules.root_p = root_hist / n
    max_height = params["max_height"]
    d = len(qi)
    width = dhi - dlo + 1
    # the records' codes, SA indices and nodes: built once where they live
    states = _States(data[qi + [sa]], qi, sa, values, dlo, dhi)

    def loc_table(top, nodes):
        loc_of = np.full(len(top.dim), -1, dtype=np.int64)
        loc_of[nodes] = np.arange(len(nodes))
        return loc_of

    top = _Top(dlo, dhi)
    active = np.zeros(1, dtype=np.int64)
    # each node's distinct cells between lb and ub: the root's counted; a child's at most its records and
    # its parent's, and its parent's less its sibling's (the cells of a node are split between its children)
    stats = dict(cnt=np.array([n]), hist=root_hist[None, :], lb=np.array([root["cells"]]), ub=np.array([root["cells"]]),
                 lo=(root["lo"][qi].to_numpy(np.int64) - dlo)[None, :], hi=(root["hi"][qi].to_numpy(np.int64) - dlo)[None, :])
    leaves, handoff = {}, []                            # top node -> SA histogram; nodes finished in memory
    while active.size:
        fits = stats["ub"] <= max_cells
        handoff.extend(zip(active[fits].tolist(), stats["ub"][fits].tolist()))
        pend = np.flatnonzero(~fits)
        nodes = active[pend]
        cnt, hist = stats["cnt"][pend], stats["hist"][pend]
        can = rules.can(cnt, hist, top.depth[nodes[0]] if nodes.size else 0, max_height)
        spread = np.column_stack([_spread(stats["lo"][pend, j], stats["hi"][pend, j], width[j]) for j in range(d)])
        order = np.argsort(-spread, axis=1, kind="stable")      # widest normalised spread first, as in memory
        best_dim = np.full(nodes.size, -1, dtype=np.int64)
        best_thr = np.zeros(nodes.size, dtype=np.int64)
        todo = np.flatnonzero(can)
        loc_of = loc_table(top, nodes)
        for r in range(d):
            if not todo.size:
                break
            cand = np.full(nodes.size, -1, dtype=np.int64)
            cand[todo] = order[todo, r]
            vc = states.reduce(_vtable_part, _sum_counts, loc_of, cand).rename("n").reset_index()
            loc_all = vc["node"].to_numpy(np.int64)
            pos = np.full(nodes.size, -1, dtype=np.int64)
            pos[todo] = np.arange(todo.size)
            med, n_le, n_lt, h_le, h_lt = _median_counts(pos[loc_all], vc["v"].to_numpy(np.int64),
                                                         vc["s"].to_numpy(np.int64), vc["n"].to_numpy(np.int64),
                                                         cnt[todo], S, rules.need_hist)
            good, use_lt = rules.cut(cnt[todo], n_le, n_lt, h_le, h_lt, hist[todo] if rules.need_hist else None)
            best_dim[todo[good]] = cand[todo][good]
            best_thr[todo[good]] = np.where(use_lt, med - 1, med)[good]
            todo = todo[best_dim[todo] < 0]
        children = []
        for i, node in enumerate(nodes.tolist()):
            if best_dim[i] < 0:
                leaves[node] = hist[i]
            else:
                children.extend(top.split(node, int(best_dim[i]), int(best_thr[i])))
        split = best_dim >= 0
        p_lb, p_ub = np.repeat(stats["lb"][pend][split], 2), np.repeat(stats["ub"][pend][split], 2)
        active = np.array(children, dtype=np.int64)
        if active.size:
            states.map(_advance, *top.arrays())     # every record one step down, where it lives
            loc_of = loc_table(top, active)
            st = states.reduce(_level_part, _level_merge, loc_of, active.size, S)
            cnt = st["hist"].sum(axis=1).astype(np.int64)
            lb, ub = _cell_bounds(cnt, p_lb, p_ub)
            big = np.flatnonzero((lb <= max_cells) & (ub > max_cells))      # fit or not: count them
            if big.size:
                states.map(_hashed)                 # once: the cells' hashes stay with the records
                keys = states.reduce(_distinct_part, _distinct_merge, loc_table(top, active[big]),
                                     final=_count_keys)["keys"]
                lb[big] = ub[big] = np.pad(keys, (0, big.size - keys.size))
            stats = dict(cnt=cnt, hist=st["hist"].astype(float), lb=lb, ub=ub, lo=st["lo"], hi=st["hi"])
    # the nodes set aside: their cells in batches of at most max_cells, each subtree grown in memory
    subs = {}
    batch, size = [], 0
    for i, (node, c) in enumerate(handoff):
        batch.append(node)
        size += c
        if i + 1 == len(handoff) or size + handoff[i + 1][1] > max_cells:
            widths = [len(batch)] + width.tolist()
            Z, su, w = states.reduce(_cells_part, partial(_cells_merge, widths, S), loc_table(top, batch), widths, S)
            o = np.argsort(Z[0], kind="stable")
            cut = np.searchsorted(Z[0][o], np.arange(len(batch) + 1))
            for b, nd in enumerate(batch):
                rows = o[cut[b]:cut[b + 1]]
                mh = None if max_height is None else max_height - top.depth[nd]
                subs[nd] = _mondrian_cells([[col[rows] for col in Z[1:]], su[rows], w[rows]], S, dlo, dhi, rules, mh,
                                           box=(top.lo[nd] + dlo, top.hi[nd] + dlo))
            del Z, su, w, o, rows
            batch, size = [], 0
    del states                                          # the workers let the records' states go
    tree, leaf_nodes, hists = _replay(*_forest(top, leaves, subs, dlo, S), dlo, dhi)
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)


def _forest(top, leaves, subs, dlo, S):
    """The top tree and the subtrees grown in memory as one array of nodes (``dim``, 0-based
    ``thr``, ``left``, ``right``, each leaf's row of the histograms, the histograms): a top node
    set aside stands for its subtree's root."""
    tdim, tthr, tleft, tright = top.arrays()
    parts = [(tdim, tthr, tleft, tright)]
    hrow = [np.full(tdim.size, -1, dtype=np.int64)]
    hists = [np.zeros((0, S))]
    redirect = np.arange(tdim.size, dtype=np.int64)
    off, h_off = tdim.size, 0
    for node, hist in leaves.items():
        hrow[0][node] = h_off
        hists.append(hist[None, :])
        h_off += 1
    for node, (tree, leaf_nodes, h) in subs.items():
        dim, thr, left, right, _ = tree.arrays()
        inner = dim >= 0
        thr = np.where(inner, thr - dlo[np.maximum(dim, 0)], 0)
        parts.append((dim, thr, np.where(inner, left + off, -1), np.where(inner, right + off, -1)))
        rows = np.full(dim.size, -1, dtype=np.int64)
        rows[np.asarray(leaf_nodes, dtype=np.int64)] = h_off + np.arange(len(leaf_nodes))
        hrow.append(rows)
        hists.append(h)
        redirect[node] = off
        off += dim.size
        h_off += len(leaf_nodes)
    dim, thr, left, right = (np.concatenate([p[i] for p in parts]) for i in range(4))
    inner = dim >= 0
    left[inner] = np.where(left[inner] < tdim.size, redirect[np.minimum(left[inner], tdim.size - 1)], left[inner])
    right[inner] = np.where(right[inner] < tdim.size, redirect[np.minimum(right[inner], tdim.size - 1)], right[inner])
    return dim, thr, left, right, np.concatenate(hrow), np.concatenate(hists)


def _median_counts(loc, v, s, cnt, c, S, need_hist):
    """Per node ``i`` (``c[i]`` records): the code of the record at sorted position
    ``(c[i] - 1) // 2`` (the median of :class:`_Layouts`), the records at most / below it and
    (``need_hist``) their SA histograms, from a table of counts: ``cnt`` records of node
    ``loc``, code ``v`` and SA index ``s`` (rows in any order, each (loc, v, s) once)."""
    m = c.size
    W = int(v.max(initial=0)) + 1
    key = loc.astype(np.int64) * W + v
    o = np.argsort(key, kind="stable")
    key, cnt_o = key[o], cnt[o].astype(np.int64)
    C = np.concatenate([[0], np.cumsum(cnt_o)])
    first = np.searchsorted(key, np.arange(m, dtype=np.int64) * W, side="left")
    before = C[first]
    pos = np.searchsorted(C, before + (c - 1) // 2 + 1, side="left") - 1     # the row holding the median record
    med = key[pos] - np.arange(m, dtype=np.int64) * W
    mk = np.arange(m, dtype=np.int64) * W + med
    n_le = C[np.searchsorted(key, mk, side="right")] - before
    n_lt = C[np.searchsorted(key, mk, side="left")] - before
    h_le = h_lt = None
    if need_hist:
        wts = cnt.astype(float)
        rm = med[loc]
        h_le = _group_hist(loc, s, m, S, wts * (v <= rm))
        h_lt = _group_hist(loc, s, m, S, wts * (v < rm))
    return med, n_le, n_lt, h_le, h_lt


def _replay(dim, thr, left, right, hrow, hists, dlo, dhi):
    """The :class:`_Tree`, leaf ids and leaf histograms that :func:`_mondrian_cells` numbers, of a
    tree given node by node in any numbering (node 0 the root): ``dim`` (-1 for a leaf), 0-based
    ``thr``, ``left``/``right`` (indices into these arrays) and each leaf's row ``hrow`` of
    ``hists``.  A tree grown in pieces (top levels on a cluster, subtrees in memory) gets the ids
    of the tree grown at once: level by level, the left children then the right ones."""
    d = dlo.size
    tree = _Tree(d, dlo, dhi)
    active = tree.add(dlo[None, :].copy(), dhi[None, :].copy(), 0)
    act_lo, act_hi = np.zeros((1, d), tree.box_dtype), (dhi - dlo)[None, :].astype(tree.box_dtype)
    f = np.zeros(1, np.int64)
    leaf_nodes, rows = [], []
    depth = 0
    while active.size:
        dm = dim[f]
        leaf = dm < 0
        leaf_nodes.append(active[leaf])
        rows.append(hrow[f[leaf]])
        sp = np.flatnonzero(~leaf)
        if not sp.size:
            break
        depth += 1
        active, act_lo, act_hi = _grow(tree, active, act_lo, act_hi, sp, dm[sp], thr[f[sp]], depth, dlo)
        f = np.column_stack([left[f[sp]], right[f[sp]]]).ravel()
    return tree, np.concatenate(leaf_nodes), hists[np.concatenate(rows)]
