"""The release type of the spatial decompositions: leaves with SA histograms, and its tree."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..accounting import Ledger
from ._encoding import qi_codes


@dataclass(frozen=True, eq=False)
class Decomposition:
    """A spatial decomposition: leaves (boxes over the QIs) with SA histograms.

    Attributes
    ----------
    qi : tuple of str
        Quasi-identifier columns, in the order of the box dimensions.
    sa : str
        Sensitive attribute.
    sa_values : tuple
        The SA values, in the order of the histogram columns.
    lower, upper : ndarray (leaves x d), int64
        Inclusive integer bounds of each leaf's box.
    histograms : ndarray (leaves x len(sa_values)), float
        SA counts per leaf: exact (Mondrian) or noisy, possibly negative (DP).
    domain_lower, domain_upper : ndarray (d,)
        The root box.
    tree_dim, tree_threshold, tree_left, tree_right, tree_leaf, tree_depth : ndarray
        The binary tree: node ``i`` splits on ``qi[tree_dim[i]]`` sending codes
        ``<= tree_threshold[i]`` to ``tree_left[i]``; ``tree_leaf[i]`` is the leaf index of
        a leaf node (-1 for an inner node).  Node 0 is the root.
    ledger : privlib.accounting.Ledger
        Privacy spend, one ``"path"`` entry per mechanism call (path = node ids from the
        root to the node the call reads); empty for the syntactic models.
    params : dict
        How the decomposition was built.

    Examples
    --------
    Built by :func:`privlib.partition.mondrian` or :func:`privlib.partition.dp_kdtree`:

    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> dec = mondrian(pd.DataFrame({"x": range(8), "s": list("aabbabab")}), ["x"], "s", k=2)
    >>> dec.n_leaves, dec.height, dec.counts.tolist()
    (4, 2, [2.0, 2.0, 2.0, 2.0])
    >>> dec.assign(pd.DataFrame({"x": [0, 5]})).tolist()
    [0, 1]
    """

    qi: tuple
    sa: str
    sa_values: tuple
    lower: np.ndarray
    upper: np.ndarray
    histograms: np.ndarray
    domain_lower: np.ndarray
    domain_upper: np.ndarray
    tree_dim: np.ndarray
    tree_threshold: np.ndarray
    tree_left: np.ndarray
    tree_right: np.ndarray
    tree_leaf: np.ndarray
    tree_depth: np.ndarray
    ledger: Ledger = field(default_factory=Ledger)
    params: dict = field(default_factory=dict)

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(self.lower.shape[0])

    @property
    def height(self) -> int:
        """Depth of the deepest leaf (0 for a root-only tree)."""
        return int(self.tree_depth[self.tree_leaf >= 0].max())

    @property
    def counts(self) -> np.ndarray:
        """Leaf totals (row sums of ``histograms``)."""
        return self.histograms.sum(axis=1)

    @property
    def widths(self) -> np.ndarray:
        """Number of integer codes of each leaf along each QI (leaves x d)."""
        return self.upper - self.lower + 1

    def assign(self, df: pd.DataFrame) -> np.ndarray:
        """Leaf index of every record of ``df`` (vectorised descent, one step per tree level).

        Parameters
        ----------
        df : pandas.DataFrame
            Records with the QI columns ``self.qi`` (ordered integer codes).

        Returns
        -------
        numpy.ndarray
            One int64 leaf index per record.

        Raises
        ------
        ValueError
            If a record lies outside the root box.
        """
        X = qi_codes(df, list(self.qi))
        return self.assign_codes(X)

    def assign_codes(self, codes: np.ndarray) -> np.ndarray:
        """Leaf index of every row of an ``n x d`` code matrix (:func:`privlib.partition.qi_codes`).

        Parameters
        ----------
        codes : numpy.ndarray
            ``n x d`` integer codes, columns in the order of ``self.qi``.

        Returns
        -------
        numpy.ndarray
            One int64 leaf index per row.

        Raises
        ------
        ValueError
            If a row lies outside the root box.
        """
        X = codes
        outside = (X < self.domain_lower) | (X > self.domain_upper)
        if outside.any():
            j = int(np.argmax(outside.any(axis=0)))
            raise ValueError(f"df: quasi-identifier {self.qi[j]!r} has values outside the decomposition's domain "
                             f"[{self.domain_lower[j]}, {self.domain_upper[j]}]")
        node = np.zeros(X.shape[0], dtype=np.int64)
        rows = np.arange(X.shape[0])
        active = self.tree_leaf[node] < 0
        while active.any():
            r = rows[active]
            nd = node[r]
            go_left = X[r, self.tree_dim[nd]] <= self.tree_threshold[nd]
            node[r] = np.where(go_left, self.tree_left[nd], self.tree_right[nd])
            active = self.tree_leaf[node] < 0
        return self.tree_leaf[node]

    def leaf_paths(self) -> list[list[int]]:
        """For every leaf, the list of tree nodes from the root to it.

        Returns
        -------
        list of list of int
            One path of node ids per leaf, in leaf order.
        """
        parent = np.full(self.tree_dim.shape[0], -1, dtype=np.int64)
        inner = np.flatnonzero(self.tree_leaf < 0)
        parent[self.tree_left[inner]] = inner
        parent[self.tree_right[inner]] = inner
        paths = []
        for node in np.flatnonzero(self.tree_leaf >= 0)[np.argsort(self.tree_leaf[self.tree_leaf >= 0])]:  # sort: unique keys
            path = [int(node)]
            while parent[path[-1]] >= 0:
                path.append(int(parent[path[-1]]))
            paths.append(path[::-1])
        return paths

    def path_spend(self) -> np.ndarray:
        """Sum of the ledger's eps along each root-to-leaf path (one value per leaf).

        Read from the ledger's ``"path"`` entries (:meth:`privlib.accounting.Ledger.path_costs`
        gives the same sums for the nodes that have entries); 0 for a syntactic model.

        Returns
        -------
        numpy.ndarray
            One float per leaf.
        """
        at: dict = {}
        for e in self.ledger:
            if e.composition == "path":
                at[e.path[-1]] = at.get(e.path[-1], 0.0) + e.eps
        return np.array([sum(at.get(n, 0.0) for n in path) for path in self.leaf_paths()])

    def leaves_frame(self) -> pd.DataFrame:
        """One row per leaf: its box (``<qi>_lo``, ``<qi>_hi``) and count.

        Returns
        -------
        pandas.DataFrame
        """
        data = {}
        for j, c in enumerate(self.qi):
            data[f"{c}_lo"] = self.lower[:, j]
            data[f"{c}_hi"] = self.upper[:, j]
        data["count"] = self.counts
        return pd.DataFrame(data)


class _Tree:
    """Growing arrays of a binary tree (internal helper of the builders): node boxes and depths
    per added batch, splits recorded per call and written once in :meth:`finish` (no work in
    the number of nodes per level)."""

    def __init__(self, d, dlo=None, dhi=None):
        self.n_nodes = 0
        self.depths, self.lo, self.hi, self.splits, self.starts = [], [], [], [], []
        self.d = d
        # with the root box: boxes kept as offsets from its lower corner in the smallest unsigned
        # dtype of its widest side (a tree of 10^6 nodes over 9 QIs: a few bytes per bound, not 8)
        self.base = None if dlo is None else np.asarray(dlo, np.int64)
        self.box_dtype = np.int64
        if dlo is not None:
            from ._cells import _small_uint
            self.box_dtype = _small_uint(int((np.asarray(dhi, np.int64) - self.base).max(initial=0)) + 1)

    def add(self, lo, hi, depth):
        """Add ``len(lo)`` new nodes; return their ids."""
        start = self.n_nodes
        m = lo.shape[0]
        self.n_nodes += m
        self.starts.append(start)
        self.depths.append(int(depth))              # one depth per batch
        if self.base is None:
            self.lo.append(lo)
            self.hi.append(hi)
        else:
            self.lo.append((lo - self.base).astype(self.box_dtype))
            self.hi.append((hi - self.base).astype(self.box_dtype))
        return np.arange(start, start + m)

    def add_offsets(self, lo, hi, depth, dlo):
        """:meth:`add` of boxes given as offsets from the corner ``dlo`` (0-based codes, any
        integer dtype): stored as they are when ``dlo`` is the tree's root corner."""
        if self.base is None or not np.array_equal(self.base, dlo):
            return self.add(lo.astype(np.int64) + dlo, hi.astype(np.int64) + dlo, depth)
        start = self.n_nodes
        m = lo.shape[0]
        self.n_nodes += m
        self.starts.append(start)
        self.depths.append(int(depth))              # one depth per batch
        self.lo.append(lo.astype(self.box_dtype, copy=False))
        self.hi.append(hi.astype(self.box_dtype, copy=False))
        return np.arange(start, start + m)

    def _leaf_boxes(self, leaf_nodes):
        """The boxes ``(lo, hi)`` (int64) of ``leaf_nodes`` (ascending), batch by batch: no
        concatenation of every node's box; the batches are released as they are read."""
        L = leaf_nodes.size
        lo, hi = np.empty((L, self.d), np.int64), np.empty((L, self.d), np.int64)
        cut = np.searchsorted(leaf_nodes, np.asarray(self.starts + [self.n_nodes], dtype=np.int64), side="left")
        for i in range(len(self.starts)):
            a, b = int(cut[i]), int(cut[i + 1])
            rows = leaf_nodes[a:b] - self.starts[i]
            lo[a:b] = self.lo[i][rows]
            hi[a:b] = self.hi[i][rows]
            self.lo[i] = self.hi[i] = None
        if self.base is not None:
            lo += self.base
            hi += self.base
        return lo, hi

    def split(self, nodes, dims, thrs, left, right):
        self.splits.append(tuple(np.asarray(a, dtype=np.int64) for a in (nodes, dims, thrs, left, right)))

    def arrays(self, release=False):
        """``(dim, thr, left, right, depth)``: one int64 array each (-1 / 0 for a leaf); with
        ``release``, the splits recorded are let go as they are written (the tree is
        finished: no copy of them outlives its array)."""
        n = self.n_nodes
        dim, left, right = np.full(n, -1, np.int64), np.full(n, -1, np.int64), np.full(n, -1, np.int64)
        thr = np.zeros(n, np.int64)
        for i, (nodes, dims, thrs, lft, rgt) in enumerate(self.splits):
            dim[nodes], thr[nodes], left[nodes], right[nodes] = dims, thrs, lft, rgt
            if release:
                self.splits[i] = None
        depth = np.zeros(n, np.int64)
        for start, end, dep in zip(self.starts, self.starts[1:] + [n], self.depths):
            depth[start:end] = dep
        return dim, thr, left, right, depth

    def finish(self, leaf_nodes, histograms, qi, sa, sa_values, dlo, dhi, ledger, params):
        n_nodes = self.n_nodes
        dim, thr, left, right, depth = self.arrays(release=True)
        leaf_nodes = np.asarray(leaf_nodes, dtype=np.int64)
        order = np.argsort(leaf_nodes, kind="stable")
        leaf_nodes = leaf_nodes[order]
        lo, hi = self._leaf_boxes(leaf_nodes)
        histograms = np.asarray(histograms, dtype=float)[order]
        tree_leaf = np.full(n_nodes, -1, dtype=np.int64)
        tree_leaf[leaf_nodes] = np.arange(leaf_nodes.size)
        return Decomposition(
            qi=tuple(qi), sa=sa, sa_values=tuple(sa_values),
            lower=lo, upper=hi, histograms=histograms,
            domain_lower=np.asarray(dlo, np.int64), domain_upper=np.asarray(dhi, np.int64),
            tree_dim=dim, tree_threshold=thr, tree_left=left, tree_right=right,
            tree_leaf=tree_leaf, tree_depth=depth,
            ledger=ledger if isinstance(ledger, Ledger) else Ledger(ledger), params=dict(params))


def _group_hist(group, values, n_groups, n_values, weights=None):
    return np.bincount(group * n_values + values, weights=weights,
                       minlength=n_groups * n_values).reshape(n_groups, n_values)

