"""The array views a Hierarchy caches (pre-order layout, level codes, hierarchical-EMD matrices)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._base import Preorder


def preorder(self) -> Preorder:
    """Build :meth:`Hierarchy.preorder` (the cache is the Hierarchy's)."""
    nodes: list = []
    children: list = []
    lo: list = []
    hi: list = []
    leaves: list = []

    def visit(node):  # iterative would be longer; taxonomy trees are shallow
        i = len(nodes)
        nodes.append(node)
        children.append([])
        lo.append(len(leaves))
        hi.append(None)
        ch = self._children[node]
        if not ch:
            leaves.append(node)
        for c in ch:
            children[i].append(visit(c))
        hi[i] = len(leaves)
        return i

    visit(self.root)
    view = Preorder(nodes=tuple(nodes), children=tuple(tuple(c) for c in children),
                    lo=np.asarray(lo, dtype=np.int64), hi=np.asarray(hi, dtype=np.int64),
                    leaves=tuple(leaves))
    return view


def level_codes(self) -> tuple:
    """Build :meth:`Hierarchy.level_codes`."""
    out = []
    for level in range(self.height + 1):
        anc = [self.ancestor(v, level) for v in self.leaves]
        codes, uniq = pd.factorize(pd.Series(anc, dtype=object))
        out.append((codes.astype(np.int64), len(uniq)))
    view = tuple(out)
    return view


def emd_matrices(self) -> tuple:
    """Build :meth:`Hierarchy.emd_matrices`."""
    from scipy import sparse   # imported on first use: keeps `import privlib.hierarchy` lean

    all_nodes = self.nodes
    nodes = [n for n in all_nodes if self._children[n]]
    node_pos = {n: i for i, n in enumerate(all_nodes)}
    leaves = self.leaves
    m = len(leaves)
    # leaf -> every node on its path (including itself)
    rows, cols = [], []
    for i, v in enumerate(leaves):
        for a in self.path(v):
            rows.append(i)
            cols.append(node_pos[a])
    A = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(m, len(all_nodes)))
    # node -> its parent (child indicator of each inner node)
    rows, cols = [], []
    inner_pos = {n: j for j, n in enumerate(nodes)}
    for n in all_nodes:
        par = self._parent.get(n)
        if par is not None:
            rows.append(node_pos[n])
            cols.append(inner_pos[par])
    C = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(all_nodes), len(nodes)))
    weights = np.array([self._height[n] for n in nodes], dtype=float) / max(self.height, 1)
    view = (A, C, weights)
    return view


def distance_matrix(self) -> np.ndarray:
    """Build :meth:`Hierarchy.distance_matrix` from the level codes, one comparison per level.

    The LCA of two leaves has height ``h`` exactly when ``h`` is the lowest level at which
    their generalizations (:meth:`Hierarchy.ancestor`, numbered by :meth:`Hierarchy.level_codes`)
    coincide; so, from the top level down, every pair with equal codes at level ``L`` gets
    ``L / H``.  ``O(H m^2)`` vectorised instead of ``m^2`` Python LCA walks.
    """
    m = len(self.leaves)
    if self.height == 0:
        return np.zeros((m, m))
    d = np.ones((m, m))
    for level in range(self.height - 1, -1, -1):
        codes = self.level_codes()[level][0]
        order = np.argsort(codes, kind="stable")
        sc = codes[order]
        starts = np.flatnonzero(np.r_[True, sc[1:] != sc[:-1]])
        ends = np.r_[starts[1:], m]
        value = level / self.height
        for a, b in zip(starts[ends - starts > 1], ends[ends - starts > 1]):
            block = order[a:b]
            if block[-1] - block[0] == b - a - 1:     # a contiguous run of leaves (depth-first order)
                d[block[0]:block[-1] + 1, block[0]:block[-1] + 1] = value
            else:
                d[np.ix_(block, block)] = value
    np.fill_diagonal(d, 0.0)
    return d
