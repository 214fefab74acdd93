"""Census scale: the counting algorithms on a Dask DataFrame (and a dask.distributed cluster).

Mondrian, the DP kd-tree, DiffGen's counts per cut and class and the k/l/t checks of a published
table read the records only through counts -- per cell of the quasi-identifiers (QIs) and the
sensitive attribute (SA) -- so they split into two steps:

1. **count on the cluster**: every partition of the Dask DataFrame is counted where it lives and
   the counts are summed (a group-by on the columns the algorithm reads, or a per-partition
   table); what comes back is one row per *distinct* cell with its multiplicity, not the records;
2. **finish in memory**: the in-memory algorithm runs on the distinct cells, each weighted by its
   count.

The result is exactly the in-memory one on the same records (same leaves, counts, noise draws,
ledger, reports): the functions accept a pandas DataFrame too and then equal
:func:`privlib.partition.mondrian`, :func:`privlib.partition.dp_kdtree`,
:func:`privlib.diffgen.contingency_table`, :func:`privlib.models.k_anonymity`,
:func:`privlib.models.l_diversity`, :func:`privlib.models.t_closeness` and
:func:`privlib.release.information_loss`.  What has to fit in
memory is the table of distinct cells: a census table of 10^8 records over a few coded QIs has
at most the product of their domain sizes (times the SA's) distinct cells -- 709,632 for the
empirical-privacy chapter's five Adult QIs and 14 occupations -- however many records it holds.
A QI with a distinct value per record (an exact income, a timestamp) makes the cells as many as
the records: :func:`dask_mondrian` then grows the top levels of its tree on the cluster, from
per-node counts, until each node's cells fit (the other functions need the cells in memory; code
such a QI coarser first).

Dask (``pip install privlib[dask]``) is imported only when a Dask DataFrame is passed: ``import
privlib.scale`` does not import it.  The computation runs on the scheduler Dask is configured
with: a ``dask.distributed.Client`` made current (``Client(cluster)``) sends it to its cluster.

================================ =================================================================
:func:`cell_counts`              distinct rows of some columns and their counts (the count step)
:func:`dask_mondrian`            Mondrian (k, l, t) from the cells (top levels on the cluster if need be)
:func:`dask_kdtree`              the DP kd-tree from the cells (same draws and noise)
:func:`dask_contingency_table`   DiffGen's counts per cut value combination and class
:func:`dask_k_anonymity`         k-anonymity, l-diversity and t-closeness of a published table,
:func:`dask_l_diversity`         from its class x SA counts
:func:`dask_t_closeness`
:func:`dask_information_loss`    NCP, discernibility and C_avg of a release on the records
================================ =================================================================
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .models import CheckReport, KAnonymityReport, check_counts, LDiversityReport, TClosenessReport
from .partition import Decomposition
from .release import InformationLoss

__all__ = [
    "dask_check",
    "cell_counts",
    "dask_contingency_table",
    "dask_information_loss",
    "dask_k_anonymity",
    "dask_kdtree",
    "dask_l_diversity",
    "dask_mondrian",
    "dask_t_closeness",
]


def _is_dask(data) -> bool:
    return any(c.__module__.split(".")[0] in ("dask", "dask_expr") for c in type(data).__mro__)


def _check_data(data, columns, name) -> list:
    """``data`` is a pandas or Dask DataFrame holding ``columns`` (a name or a list of names)."""
    if not (isinstance(data, pd.DataFrame) or _is_dask(data) and hasattr(data, "columns")):
        raise TypeError(f"data: expected a pandas or Dask DataFrame, got {type(data).__name__}")
    cols = [columns] if isinstance(columns, str) or not isinstance(columns, Sequence) else list(columns)
    missing = [c for c in cols if c not in list(data.columns)]
    if missing:
        raise ValueError(f"{name}: column(s) {missing} are not in the data (columns: {list(data.columns)[:20]})")
    if not cols:
        raise ValueError(f"{name}: expected at least one column, got none")
    if len(set(cols)) != len(cols):
        raise ValueError(f"{name}: expected distinct columns, got {cols}")
    return cols


def cell_counts(data: Any, columns: Sequence[str], *, name: str = "count") -> pd.DataFrame:
    """The distinct rows of ``data[columns]`` and how many records each stands for.

    The count step of every function of this module: on a Dask DataFrame a group-by computed
    partition by partition on its scheduler (a ``dask.distributed`` cluster when a client is
    current), on a pandas DataFrame in memory.  Missing values form their own cells (the
    algorithms then refuse them, naming the column).

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records.
    columns : sequence of str
        The columns whose distinct combinations are counted.
    name : str, default "count"
        The name of the count column.

    Returns
    -------
    pandas.DataFrame
        One row per distinct combination, sorted by ``columns``; the columns and an int64
        ``name`` column summing to the number of records.

    Raises
    ------
    TypeError, ValueError
        For data that is not a DataFrame, unknown, duplicated or no columns, or a ``name`` that is
        one of ``columns``.

    Examples
    --------
    >>> import pandas as pd
    >>> cell_counts(pd.DataFrame({"x": [2, 1, 2, 2], "s": list("abab")}), ["x", "s"])
       x  s  count
    0  1  b      1
    1  2  a      2
    2  2  b      1
    """
    cols = _check_data(data, columns, "columns")
    if name in cols:
        raise ValueError(f"name: expected a name that is not one of the columns {cols}, got {name!r}")
    sizes = data[cols].groupby(cols, sort=True, observed=True, dropna=False).size()
    if _is_dask(data):
        sizes = sizes.compute().sort_index(kind="stable")       # partial sums arrive in any order
    out = sizes.rename(name).reset_index()
    out[name] = out[name].astype(np.int64)
    return out


def _weighted(data, qi, sa):
    """The distinct (QI, SA) rows of ``data`` and their counts (int64)."""
    cols = _check_data(data, list(qi) + [sa], "qi and sa")
    cells = cell_counts(data, cols, name="__count__" if "count" in cols else "count")
    counts = cells.columns[-1]
    w = cells[counts].to_numpy(np.int64)
    return cells.drop(columns=[counts]), w


def dask_mondrian(data: Any, qi: Sequence[str], sa: str, *, k: int, l: int | None = None, t: float | None = None,
                  max_height: int | None = None, l_kind: str = "distinct", distance: str | None = None,
                  t_rule: str = "strict", domain: Mapping[str, tuple[int, int]] | None = None,
                  sa_values: Sequence[Hashable] | None = None, requirements: Sequence = (),
                  max_cells: int | None = None) -> Decomposition:
    """:func:`privlib.partition.mondrian` on a Dask (or pandas) DataFrame: the same decomposition.

    The distinct ``(qi, sa)`` cells are counted on the cluster first, before anything is built.
    When they fit (at most ``max_cells``), they are brought into memory (:func:`cell_counts`)
    and Mondrian runs on them, each weighted by its count: every node's count, median and SA
    histogram is the records', so the tree, the leaves and their histograms are the in-memory
    ones, and so is the guarantee (every leaf holds at least ``k`` records; l and t as
    requested).

    When they do not fit, the top levels of the tree are grown on the cluster, level by level:
    each record is sent down the tree grown so far (its codes against the splits); per node the
    records' count, SA histogram, smallest and largest code per QI and distinct cells are
    counted where the records live; a node whose cells fit is set aside, every other node is
    split as in memory -- on the QI of widest normalised spread (then the next widest), at its
    median, read from the counts per (node, code, SA value) of that QI, the cut allowed by the
    same rules (k, l, t, ``requirements``: one object decides in both places).  Each
    node set aside then has its cells brought into memory (in batches of at most ``max_cells``
    cells) and its subtree grown there; the pieces are numbered as one tree.  The result is the
    in-memory one, leaf for leaf, node for node.  Memory: ``max_cells`` cells and, per level,
    the counts per (node, code, SA value) of the QI each node is cut on.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records (QIs as ordered integer codes, as for :func:`privlib.partition.mondrian`;
        plain integer columns when the cells do not fit).
    qi, sa, k, l, t, max_height, l_kind, distance, t_rule, domain, sa_values, requirements
        As for :func:`privlib.partition.mondrian`.
    max_cells : int, optional
        The most distinct cells brought into memory at once; default: what fits in half the
        memory available now (``_CELL_BYTES`` bytes per cell and column).

    Returns
    -------
    privlib.partition.Decomposition
        ``params["n"]`` is the number of records.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.partition.mondrian`; ``k`` is checked against the number of records;
        a TypeError for a QI that is not a plain integer column when the cells do not fit.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": [0, 1, 1, 2, 3, 3, 3, 5], "s": list("abababab")})
    >>> dask_mondrian(df, ["x"], "s", k=2).lower.ravel().tolist() == mondrian(df, ["x"], "s", k=2).lower.ravel().tolist()
    True
    >>> dask_mondrian(df, ["x"], "s", k=2, max_cells=3).lower.ravel().tolist() == mondrian(df, ["x"], "s", k=2).lower.ravel().tolist()
    True
    """
    from .partition._mondrian import _mondrian

    kw = dict(k=k, l=l, t=t, max_height=max_height, l_kind=l_kind, distance=distance, t_rule=t_rule,
              domain=domain, sa_values=sa_values, requirements=requirements)
    cols = _check_data(data, list(qi) + [sa], "qi and sa")
    max_cells = _max_cells(max_cells, len(cols))
    root = _root_counts(data, cols)                      # the distinct cells, counted before anything is built
    if root["cells"] <= max_cells:
        cells, w = _weighted(data, qi, sa)
        return _mondrian(cells, qi, sa, w, **kw)
    return _top_levels(data, list(qi), sa, max_cells, root, **kw)


#: Working memory of in-memory Mondrian per distinct cell and column (codes, ranks, layouts, copies).
_CELL_BYTES = 64


def _max_cells(max_cells, n_cols):
    """``max_cells`` checked, or by default what fits in half the available memory."""
    if max_cells is None:
        import psutil
        return int(psutil.virtual_memory().available // 2 // (_CELL_BYTES * n_cols))
    from ._validation import check_int
    return check_int(max_cells, "max_cells", minimum=1)


def _compute(data, *xs):
    """``xs`` computed together on Dask's scheduler (for a Dask ``data``), else as they are."""
    if _is_dask(data):
        import dask
        return dask.compute(*xs)
    return xs


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


def _keys(part, cols, node=None):
    """The distinct cells of a partition as sorted 64-bit hashes of their rows (with ``node``, one
    per record: of the (node, cell) pairs, and each hash's node).  Counting distinct hashes counts
    the distinct cells, up to hash collisions (about one pair in 10^19 rows: at 10^8 cells, an
    undercount with probability below 10^-3, which only moves the line between the cluster and
    memory by a cell, never the tree)."""
    h = pd.util.hash_pandas_object(part[cols], index=False).to_numpy()
    if node is None:
        return np.unique(h), None
    h = pd.util.hash_array(h ^ (node.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)))
    keys, idx = np.unique(h, return_index=True)
    return keys, node[idx]


def _merge_keys(parts):
    keys = np.concatenate([p[0] for p in parts])
    if parts[0][1] is None:
        return np.unique(keys), None
    keys, idx = np.unique(keys, return_index=True)
    return keys, np.concatenate([p[1] for p in parts])[idx]


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


def _descend(Z, tdim, tthr, tleft, tright):
    """The node of the top tree each row of 0-based codes ``Z`` reaches (the splits' codes
    ``<= tthr`` to the left)."""
    node = np.zeros(Z.shape[0], dtype=np.int64)
    rows = np.flatnonzero(tdim[node] >= 0)
    while rows.size:
        nd = node[rows]
        go_left = Z[rows, tdim[nd]] <= tthr[nd]
        node[rows] = np.where(go_left, tleft[nd], tright[nd])
        rows = rows[tdim[node[rows]] >= 0]
    return node


def _tag(part, qi, sa, values, dlo, top, loc_of, cand):
    """The records of one partition in the top tree's nodes ``loc_of >= 0``: a frame of ``node``
    (``loc_of`` of the node reached), ``s`` (SA index) and the 0-based codes: every QI's
    (``z0``, ``z1``, ...) or, with ``cand`` (one QI per node, -1 for none), the node's ``v``."""
    Z = np.column_stack([part[c].to_numpy().astype(np.int64) for c in qi]) - dlo
    loc = loc_of[_descend(Z, *top)]
    keep = loc >= 0
    if cand is not None:
        keep[keep] = cand[loc[keep]] >= 0
    rows = np.flatnonzero(keep)
    out = {"node": loc[rows]}
    if cand is None:
        for j in range(len(qi)):
            out[f"z{j}"] = Z[rows, j]
    else:
        out["v"] = Z[rows, cand[loc[rows]]]
    out["s"] = pd.Index(values).get_indexer(part[sa].to_numpy()[rows]).astype(np.int64)
    return pd.DataFrame(out)


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
    from .partition._cells import _qi_box, _sensitive_codes
    from .partition._encoding import _check_common
    from .partition._mondrian import _check_k, _median_counts, _mondrian_cells, _replay, _rules, _spread

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
    zc = [f"z{j}" for j in range(d)]
    meta_all = pd.DataFrame({c: pd.Series(dtype=np.int64) for c in ["node"] + zc + ["s"]})
    meta_v = pd.DataFrame({c: pd.Series(dtype=np.int64) for c in ("node", "v", "s")})

    def tagged(top, nodes, cand=None):
        loc_of = np.full(len(top.dim), -1, dtype=np.int64)
        loc_of[nodes] = np.arange(len(nodes))
        args = (qi, sa, values, dlo, top.arrays(), loc_of, cand)
        if _is_dask(data):
            return data[qi + [sa]].map_partitions(_tag, *args, meta=meta_all if cand is None else meta_v)
        return _tag(data, *args)

    top = _Top(dlo, dhi)
    active = np.zeros(1, dtype=np.int64)
    stats = dict(cnt=np.array([n]), hist=root_hist[None, :], cells=np.array([root["cells"]]),
                 lo=(root["lo"][qi].to_numpy(np.int64) - dlo)[None, :], hi=(root["hi"][qi].to_numpy(np.int64) - dlo)[None, :])
    leaves, handoff = {}, []                            # top node -> SA histogram; nodes finished in memory
    while active.size:
        fits = stats["cells"] <= max_cells
        handoff.extend(zip(active[fits].tolist(), stats["cells"][fits].tolist()))
        pend = np.flatnonzero(~fits)
        nodes = active[pend]
        cnt, hist = stats["cnt"][pend], stats["hist"][pend]
        can = rules.can(cnt, hist, top.depth[nodes[0]] if nodes.size else 0, max_height)
        spread = np.column_stack([_spread(stats["lo"][pend, j], stats["hi"][pend, j], width[j]) for j in range(d)])
        order = np.argsort(-spread, axis=1, kind="stable")      # widest normalised spread first, as in memory
        best_dim = np.full(nodes.size, -1, dtype=np.int64)
        best_thr = np.zeros(nodes.size, dtype=np.int64)
        todo = np.flatnonzero(can)
        for r in range(d):
            if not todo.size:
                break
            cand = np.full(nodes.size, -1, dtype=np.int64)
            cand[todo] = order[todo, r]
            (vc,) = _compute(data, tagged(top, nodes, cand).groupby(["node", "v", "s"], sort=False).size())
            vc = vc.rename("n").reset_index()
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
        active = np.array(children, dtype=np.int64)
        if active.size:
            loc_of = np.full(len(top.dim), -1, dtype=np.int64)
            loc_of[active] = np.arange(active.size)
            st = _reduce(data[qi + [sa]], _level_part, _level_merge, qi, sa, values, dlo, top.arrays(), loc_of,
                         active.size, S)
            stats = dict(cnt=st["hist"].sum(axis=1).astype(np.int64), hist=st["hist"].astype(float),
                         cells=np.pad(st["keys"], (0, active.size - st["keys"].size)), lo=st["lo"], hi=st["hi"])
    # the nodes set aside: their cells in batches of at most max_cells, each subtree grown in memory
    subs = {}
    batch, size = [], 0
    for i, (node, c) in enumerate(handoff):
        batch.append(node)
        size += c
        if i + 1 == len(handoff) or size + handoff[i + 1][1] > max_cells:
            (cells,) = _compute(data, tagged(top, np.array(batch)).groupby(["node"] + zc + ["s"], sort=False).size())
            cells = cells.rename("n").reset_index().sort_values("node", kind="stable")
            loc = cells["node"].to_numpy(np.int64)
            cut = np.searchsorted(loc, np.arange(len(batch) + 1))
            for b, nd in enumerate(batch):
                rows = cells.iloc[cut[b]:cut[b + 1]]
                mh = None if max_height is None else max_height - top.depth[nd]
                subs[nd] = _mondrian_cells([rows[c].to_numpy(np.int64) for c in zc], rows["s"].to_numpy(np.int64),
                                           rows["n"].to_numpy(np.int64), S, dlo, dhi, rules, mh,
                                           box=(top.lo[nd] + dlo, top.hi[nd] + dlo))
            batch, size = [], 0
    tree, leaf_nodes, hists = _replay(*_forest(top, leaves, subs, dlo, S), dlo, dhi)
    return tree.finish(leaf_nodes, hists, qi, sa, values, dlo, dhi, (), params)


def _level_part(part, qi, sa, values, dlo, top, loc_of, m, S):
    """Per node ``loc_of`` of the top tree (``m`` of them), from one partition: its records' SA
    counts, smallest and largest 0-based code per QI and distinct cells (:func:`_keys`)."""
    Z = np.column_stack([part[c].to_numpy().astype(np.int64) for c in qi]) - dlo
    loc = loc_of[_descend(Z, *top)]
    rows = np.flatnonzero(loc >= 0)
    nd = loc[rows]
    s = pd.Index(values).get_indexer(part[sa].to_numpy()[rows]).astype(np.int64)
    hist = np.bincount(nd * S + s, minlength=m * S).reshape(m, S)
    lo = np.full((m, len(qi)), np.iinfo(np.int64).max)
    hi = np.full((m, len(qi)), np.iinfo(np.int64).min)
    if rows.size:
        o = np.argsort(nd, kind="stable")
        sorted_nd = nd[o]
        starts = np.flatnonzero(np.r_[True, sorted_nd[1:] != sorted_nd[:-1]])
        present = sorted_nd[starts]
        for j in range(len(qi)):
            z = Z[rows[o], j]
            lo[present, j] = np.minimum.reduceat(z, starts)
            hi[present, j] = np.maximum.reduceat(z, starts)
    return dict(hist=hist, lo=lo, hi=hi, keys=_keys(part.iloc[rows], qi + [sa], nd))


def _level_merge(*parts):
    return dict(hist=sum(p["hist"] for p in parts), lo=np.minimum.reduce([p["lo"] for p in parts]),
                hi=np.maximum.reduce([p["hi"] for p in parts]), keys=_merge_keys([p["keys"] for p in parts]))


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


def dask_kdtree(data: Any, qi: Sequence[str], sa: str, *, eps: float, height: int, rng: int | np.random.Generator,
                median_fraction: float = 0.3, domain: Mapping[str, tuple[int, int]] | None = None,
                sa_values: Sequence[Hashable] | None = None, requirements: Sequence = ()) -> Decomposition:
    """:func:`privlib.partition.dp_kdtree` on a Dask (or pandas) DataFrame: the same release.

    The distinct ``(qi, sa)`` cells are counted on the cluster (:func:`cell_counts`); the tree
    is then grown in memory on the cells, each weighted by its count.  The private medians
    draw from the same distributions with the same random numbers (their runs of cuts depend
    on the counts per code, not on the records' order) and the leaves' noisy counts are the
    same discrete Laplace draws on the same true counts: with the same ``rng`` the release, its
    ledger and its warnings are the in-memory ones.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records (QIs as ordered integer codes).
    qi, sa, eps, height, median_fraction, domain, sa_values, requirements
        As for :func:`privlib.partition.dp_kdtree`.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.partition.Decomposition
        Noisy leaf histograms and the budget ledger (checked against ``eps``).

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.partition.dp_kdtree`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": range(16), "s": list("ab") * 8})
    >>> dec = dask_kdtree(df, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 15)}, sa_values=("a", "b"))
    >>> dec.n_leaves, dec.path_spend().round(6).tolist()
    (4, [1.0, 1.0, 1.0, 1.0])
    """
    from .partition._kdtree import _dp_kdtree

    cells, w = _weighted(data, qi, sa)
    return _dp_kdtree(cells, qi, sa, w, eps=eps, height=height, rng=rng, median_fraction=median_fraction,
                      domain=domain, sa_values=sa_values, requirements=requirements)


def _table_part(part, skeleton, predictors, taxonomies, cuts, target):
    from .diffgen import contingency_table

    both = contingency_table(pd.concat([skeleton, part[skeleton.columns]], ignore_index=True), predictors,
                             taxonomies, cuts=cuts, target=target)
    alone = contingency_table(skeleton, predictors, taxonomies, cuts=cuts, target=target)
    both["count"] = both["count"].to_numpy() - alone["count"].to_numpy()
    return both


def _sum_tables(tables):
    out = tables[0].copy()
    out["count"] = np.sum([t["count"].to_numpy() for t in tables], axis=0)
    return out


def dask_contingency_table(data: Any, predictors: Sequence[str], taxonomies: Mapping, *, cuts: Mapping,
                           target: str | None = None) -> pd.DataFrame:
    """:func:`privlib.diffgen.contingency_table` on a Dask (or pandas) DataFrame: DiffGen's exact
    counts per combination of cut values (and class), the counts its Line 12 adds noise to.

    Each partition is counted where it lives (every partition's table lists the same cells: one
    record per class, taken from the data, is added to each partition and its count taken off
    again) and the tables are summed: the in-memory table of the whole data, row for row.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The raw records.
    predictors, taxonomies, cuts, target
        As for :func:`privlib.diffgen.contingency_table`.

    Returns
    -------
    pandas.DataFrame
        One row per combination and a ``count`` column.

    Raises
    ------
    TypeError, ValueError, privlib.hierarchy.HierarchyError
        As :func:`privlib.diffgen.contingency_table`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    >>> df = pd.DataFrame({"job": ["Eng", "Law", "Dan"], "age": [34, 50, 20]})
    >>> dask_contingency_table(df, ["job", "age"], {"job": job, "age": (18, 65)},
    ...                        cuts={"job": ["Pro", "Art"], "age": [40]})["count"].tolist()
    [1, 1, 1, 0]
    """
    from .diffgen import contingency_table

    cols = _check_data(data, list(predictors) + ([] if target is None else [target]), "predictors and target")
    if not _is_dask(data):
        return contingency_table(data, predictors, taxonomies, cuts=cuts, target=target)
    import dask

    if target is None:
        skeleton = data[cols].head(1, npartitions=-1)
    else:
        skeleton = data[cols].drop_duplicates(subset=[target]).compute()
        skeleton = skeleton.sort_values(target, kind="stable").reset_index(drop=True)
    if len(skeleton) == 0:
        raise ValueError("data: expected at least one record, got none")
    parts = [dask.delayed(_table_part)(p, skeleton, list(predictors), taxonomies, cuts, target)
             for p in data[cols].to_delayed()]
    (total,) = dask.compute(dask.delayed(_sum_tables)(parts))
    return total


def _class_counts(data, qi, sa, sa_values):
    """``(keys, counts, domain)`` of :func:`privlib.models.class_counts`, from the cells."""
    from scipy import sparse

    from .models._classes import _domain_codes

    cells, w = _weighted(data, qi, sa)
    if cells[qi].isna().any().any() or cells[sa].isna().any():
        bad = [c for c in qi + [sa] if cells[c].isna().any()]
        raise ValueError(f"df: column(s) {bad} have missing values")
    g = cells.groupby(qi, sort=True, observed=True, dropna=False)
    ids = g.ngroup().to_numpy()
    keys = g.size().index
    codes, domain = _domain_codes(cells[sa], sa_values, sa)
    counts = sparse.csr_matrix((w.astype(float), (ids, codes)), shape=(len(keys), len(domain)))
    counts.sum_duplicates()
    return keys, counts, domain


def dask_check(data: Any, qi: Sequence[str], sa: str, requirements: Sequence, /, *,
               sa_values: Sequence | None = None) -> CheckReport:
    """:func:`privlib.models.check` of a published table given as a Dask (or pandas) DataFrame.

    The classes' sensitive counts are computed on the cluster (the distinct cells); every
    requirement is then read through its protocol in memory
    (:func:`privlib.models.check_counts`): no formula is written twice.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published (generalized) table.
    qi, sa, requirements, sa_values
        As for :func:`privlib.models.check`.

    Returns
    -------
    privlib.models.CheckReport

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.check`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.requirements import BetaLikeness
    >>> t = pd.DataFrame({"zip": ["a", "a", "b", "b"], "d": ["x", "y", "x", "x"]})
    >>> dask_check(t, ["zip"], "d", [BetaLikeness(0.5)]).holds
    False
    """
    qi = _check_data(data, qi, "qi")
    _, counts, _ = _class_counts(data, qi, sa, sa_values)
    return check_counts(counts, requirements)


def dask_k_anonymity(data: Any, qi: Sequence[str]) -> KAnonymityReport:
    """:func:`privlib.models.k_anonymity` of a published table given as a Dask (or pandas) DataFrame.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published (generalized) table.
    qi : list of str
        Quasi-identifier columns.

    Returns
    -------
    privlib.models.KAnonymityReport
        The in-memory report: ``k`` and the size of every class (sorted by QI values).

    Raises
    ------
    TypeError, ValueError
        For data that is not a DataFrame, unknown or duplicated columns, missing QI values or no
        records.

    Examples
    --------
    >>> import pandas as pd
    >>> dask_k_anonymity(pd.DataFrame({"zip": ["476**"] * 3 + ["4790*"] * 2}), ["zip"]).k
    2
    """
    qi = _check_data(data, qi, "qi")
    cells = cell_counts(data, qi, name="__size__" if "size" in qi else "size")
    if len(cells) == 0:
        raise ValueError("df: expected at least one record, got an empty table")
    if cells[qi].isna().any().any():
        raise ValueError(f"df: column(s) {[c for c in qi if cells[c].isna().any()]} have missing values")
    sizes = cells.set_index(qi)[cells.columns[-1]].rename("size")
    return KAnonymityReport(k=int(sizes.min()), sizes=sizes)


def dask_l_diversity(data: Any, qi: Sequence[str], sa: str, *, kind: str = "distinct",
                     c: float | None = None) -> LDiversityReport:
    """:func:`privlib.models.l_diversity` of a published table given as a Dask (or pandas) DataFrame.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published table.
    qi, sa, kind, c
        As for :func:`privlib.models.l_diversity`.

    Returns
    -------
    privlib.models.LDiversityReport
        The in-memory report.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.l_diversity`.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a"] * 3 + ["b"] * 3, "disease": ["flu", "flu", "ulcer"] * 2})
    >>> dask_l_diversity(t, ["zip"], "disease").l
    2
    """
    from .models import _l_report, _l_requirement

    _l_requirement(kind, c)                      # the options checked before any counting
    qi = _check_data(data, qi, "qi")
    keys, counts, _ = _class_counts(data, qi, sa, None)
    return _l_report(keys, counts, kind=kind, c=c)


def dask_t_closeness(data: Any, qi: Sequence[str], sa: str, *, distance: str = "equal",
                     sa_values: Sequence | None = None) -> TClosenessReport:
    """:func:`privlib.models.t_closeness` of a published table given as a Dask (or pandas) DataFrame,
    against the whole table's SA distribution.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published table.
    qi, sa : list of str, str
        As for :func:`privlib.models.t_closeness`.
    distance : {"equal", "ordered"}
        The ground distance (``ordered`` needs a numeric SA, an ordered categorical or
        ``sa_values`` in order).
    sa_values : sequence, optional
        As for :func:`privlib.models.t_closeness`.

    Returns
    -------
    privlib.models.TClosenessReport
        The in-memory report (``q`` the whole table's distribution).

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.t_closeness`; ``distance="hierarchical"`` is not offered here.

    Examples
    --------
    >>> import pandas as pd
    >>> r = dask_t_closeness(pd.DataFrame({"g": [0, 0, 1, 1], "s": [3, 4, 5, 11]}), ["g"], "s", distance="ordered")
    >>> round(r.t, 3)
    0.333
    """
    from ._validation import check_has_order, check_in
    from .models import _t_report
    from .requirements import TCloseness

    check_in(distance, "distance", ("equal", "ordered"))
    TCloseness(1.0, distance=distance)
    qi = _check_data(data, qi, "qi")
    (sa,) = _check_data(data, [sa], "sa")
    if distance == "ordered" and sa_values is None:
        check_has_order(data[sa].head(1, npartitions=-1) if _is_dask(data) else data[sa], "sa_values")
    keys, counts, dom = _class_counts(data, qi, sa, sa_values)
    qv = np.asarray(counts.sum(axis=0)).ravel()
    return _t_report(keys, counts, dom, qv / qv.sum(), distance=distance)


def dask_information_loss(data: Any, decomposition: Decomposition, *, qi: Sequence[str] | None = None,
                          k: int | None = None, ranges: str = "tight",
                          categorical: Sequence[str] = ()) -> InformationLoss:
    """:func:`privlib.release.information_loss` of a release on records given as a Dask (or pandas)
    DataFrame: the same NCP, discernibility and C_avg.

    Each class's size and tight ranges (its records' smallest and largest codes) are those of
    the distinct QI rows of ``data`` weighted by their counts, counted on the cluster.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The original records (the release's QIs as integer codes inside its domain).
    decomposition : privlib.partition.Decomposition
        The release.
    qi, k, ranges, categorical
        As for :func:`privlib.release.information_loss`.

    Returns
    -------
    privlib.release.InformationLoss
        The in-memory result.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.release.information_loss`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"age": [21, 23, 35, 38], "s": ["a", "b", "a", "b"]})
    >>> loss = dask_information_loss(df, mondrian(df, ["age"], "s", k=2, domain={"age": (20, 39)}))
    >>> round(loss.ncp_tight, 4), round(loss.ncp_box, 4), loss.dm, loss.c_avg
    (0.1316, 0.4737, 8.0, 1.0)
    """
    import math

    from .partition import qi_codes
    from .release._table import _check_options, _ncp

    qi, categorical, k = _check_options(decomposition, qi, ranges, categorical, k)
    cells = cell_counts(data, list(decomposition.qi), name="__count__")
    if len(cells) == 0:
        raise ValueError("df: expected at least one record, got an empty table")
    w = cells["__count__"].to_numpy(np.int64)
    X = qi_codes(cells, list(decomposition.qi), name="df")
    leaf = decomposition.assign_codes(X)
    cols = [decomposition.qi.index(c) for c in qi]
    cls, idx = np.unique(leaf, return_inverse=True)                 # the leaves holding records, ascending
    sizes = np.bincount(idx, weights=w, minlength=cls.size)
    tlo = np.full((cls.size, len(cols)), np.iinfo(np.int64).max)
    thi = np.full((cls.size, len(cols)), np.iinfo(np.int64).min)
    np.minimum.at(tlo, idx, X[:, cols])
    np.maximum.at(thi, idx, X[:, cols])
    blo, bhi = decomposition.lower[cls][:, cols], decomposition.upper[cls][:, cols]
    n = int(w.sum())
    dlo, dhi = decomposition.domain_lower[cols], decomposition.domain_upper[cols]
    is_cat = np.array([c in categorical for c in qi])
    per_qi = {name: sizes @ _ncp(lo, hi, dlo, dhi, is_cat) / n for name, lo, hi in (("tight", tlo, thi),
                                                                                   ("box", blo, bhi))}
    return InformationLoss(
        ncp=float(per_qi[ranges].mean()), ncp_tight=float(per_qi["tight"].mean()),
        ncp_box=float(per_qi["box"].mean()), ncp_by_qi=dict(zip(qi, per_qi[ranges].tolist())),
        dm=float((sizes ** 2).sum()), c_avg=(n / cls.size) / k if k is not None else math.nan,
        n_records=n, n_classes=int(cls.size), k=k, ranges=ranges, qi=qi)
